// PCRE2 for Swift: the header refuses to compile without a code unit width, so it is set here,
// before the include. Swift calls the `_8` functions; the generic names are macros.
#ifndef KEPT_CPCRE2_SHIM_H
#define KEPT_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
