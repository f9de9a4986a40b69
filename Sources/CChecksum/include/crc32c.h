#ifndef POSTFEED_CRC32C_H
#define POSTFEED_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli, the polynomial of iSCSI, ext4 and LevelDB) of `length` bytes,
/// continuing from `crc`, the CRC-32C of the bytes before them (0 for none), as zlib's
/// `crc32` chains. The check value of "123456789" is 0xE3069283.
///
/// Uses the CPU's CRC32 instruction where there is one (x86-64 with SSE 4.2, checked at
/// run time; AArch64 built with the CRC extension), else a table.
uint32_t pf_crc32c(uint32_t crc, const void *data, size_t length);

#endif
