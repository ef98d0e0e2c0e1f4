// GNU readline for Swift: upstream's header wants <stdio.h> first.
#ifndef KEPT_CREADLINE_SHIM_H
#define KEPT_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#include <wchar.h>

/* The columns of a character, as readline measures them (wcwidth is X/Open, so the C library
   module does not show it to Swift); -1 for a character with no width. */
extern int wcwidth(wchar_t c);
static inline int kept_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
#endif
