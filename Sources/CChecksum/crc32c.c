#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
#endif

// The reflected Castagnoli polynomial.
#define CASTAGNOLI 0x82F63B78u

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc & 1) ? (crc >> 1) ^ CASTAGNOLI : crc >> 1;
        }
        table[byte] = crc;
    }
}

/// One byte at a time; `crc` is the running (inverted) register.
static uint32_t crc32c_table(uint32_t crc, const uint8_t *bytes, size_t length) {
    pthread_once(&table_once, make_table);
    while (length--) {
        crc = table[(crc ^ *bytes++) & 0xFF] ^ (crc >> 8);
    }
    return crc;
}

#if defined(__x86_64__)
// Eight bytes per instruction; the unaligned head and the tail byte by byte.
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *bytes, size_t length) {
    uint64_t wide = crc;
    while (length > 0 && ((uintptr_t)bytes & 7) != 0) {
        wide = _mm_crc32_u8((uint32_t)wide, *bytes++);
        length--;
    }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        wide = _mm_crc32_u64(wide, word);
        bytes += 8;
        length -= 8;
    }
    while (length > 0) {
        wide = _mm_crc32_u8((uint32_t)wide, *bytes++);
        length--;
    }
    return (uint32_t)wide;
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
static uint32_t crc32c_arm(uint32_t crc, const uint8_t *bytes, size_t length) {
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        crc = __crc32cd(crc, word);
        bytes += 8;
        length -= 8;
    }
    while (length > 0) {
        crc = __crc32cb(crc, *bytes++);
        length--;
    }
    return crc;
}
#endif

uint32_t pf_crc32c(uint32_t crc, const void *data, size_t length) {
    const uint8_t *bytes = data;
    uint32_t reg = ~crc;
#if defined(__x86_64__)
    static int has_sse42 = -1;  // -1: not asked yet; threads that race all store the same answer
    int sse42 = __atomic_load_n(&has_sse42, __ATOMIC_RELAXED);
    if (sse42 < 0) {
        sse42 = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        __atomic_store_n(&has_sse42, sse42, __ATOMIC_RELAXED);
    }
    reg = sse42 ? crc32c_sse42(reg, bytes, length) : crc32c_table(reg, bytes, length);
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    reg = crc32c_arm(reg, bytes, length);
#else
    reg = crc32c_table(reg, bytes, length);
#endif
    return ~reg;
}
