// giflib (Debian ships no .pc file for it: the module map links `gif` directly).
// giflib reports errors through return codes; no longjmp.
#ifndef POSTFEED_CGIF_SHIM_H
#define POSTFEED_CGIF_SHIM_H
#include <stddef.h>
#include <gif_lib.h>
#endif
