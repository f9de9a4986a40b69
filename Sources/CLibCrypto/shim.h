#ifndef POSTFEED_CLIBCRYPTO_SHIM_H
#define POSTFEED_CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto, which libcurl4-openssl-dev already brings and libcurl already links:
// the disk cache's SHA-256 of each key, without building a second copy of BoringSSL.
#include <openssl/sha.h>
#endif
