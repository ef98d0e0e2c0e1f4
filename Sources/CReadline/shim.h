// GNU readline for Swift: upstream's header wants <stdio.h> first.
#ifndef KEPT_CREADLINE_SHIM_H
#define KEPT_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#endif
