// libjpeg-turbo's TurboJPEG API. It catches libjpeg's longjmp errors inside C
// (tjDecompress2 returns -1 and tjGetErrorStr2 says why), so no setjmp shim is needed.
#ifndef POSTFEED_CTURBOJPEG_SHIM_H
#define POSTFEED_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
