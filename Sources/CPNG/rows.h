// A two-thread row reader for the plainest PNG (8-bit RGB without tRNS, or 8-bit RGBA,
// not interlaced): a helper thread inflates the IDAT stream with zlib into a ring of
// filtered rows while the caller's thread unfilters each row in place and consumes it
// (PostFeed's area downscaler). libpng does both in one thread; split, a preview's decode
// takes about the time of the inflate alone on two cores. libpng still parses and checks
// everything up to the first IDAT (`pf_png_reader_open`); this reads on from there, with
// the same checks libpng makes on the image data: each IDAT chunk's CRC-32, the zlib
// header, the filter bytes, enough data for every row (like the row reader, the zlib
// Adler-32 and whatever follows the last row are not checked). For these PNGs libpng
// applies no transformation, so the rows are the same bytes as `pf_png_reader_read_row`'s.
// No call longjmps; errors come back as 0 / NULL with the reason in `message`.
#ifndef POSTFEED_CPNG_ROWS_H
#define POSTFEED_CPNG_ROWS_H
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// Rows in the ring between the inflating thread and the unfiltering one.
#define PF_PNG_RING_ROWS 64
/// The inflating thread publishes its progress at least every this many rows.
#define PF_PNG_PUBLISH_ROWS 8

typedef struct {
    const unsigned char *data;
    size_t size;
    /// Where the next chunk (its length field) starts.
    size_t position;
    /// The longest IDAT chunk accepted (libpng's own limit for this image).
    size_t chunk_limit;
    uint32_t height;
    /// 3 (RGB) or 4 (RGBA) bytes a pixel.
    int channels;
    /// One filter byte and the row's pixels.
    size_t stride;
    unsigned char *ring;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    /// Guarded by `lock`: bytes inflated into the ring so far, rows the consumer is done
    /// with (their slots may be overwritten), and the state flags.
    size_t produced;
    size_t released;
    int failed;
    int cancelled;
    /// 1 once the inflating thread is done (all rows and the stream's end, or failed).
    int finished;
    /// The consumer's next row, unguarded (its thread only).
    size_t next_row;
    int started;
    char message[200];
} pf_png_rows;

static void pf_png_rows_fail(pf_png_rows *rows, const char *text) {
    pthread_mutex_lock(&rows->lock);
    if (!rows->failed) {
        strncpy(rows->message, text != NULL ? text : "unknown zlib error", sizeof rows->message - 1);
        rows->message[sizeof rows->message - 1] = 0;
        rows->failed = 1;
    }
    pthread_cond_broadcast(&rows->changed);
    pthread_mutex_unlock(&rows->lock);
}

static uint32_t pf_png_be32(const unsigned char *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

/// Points `stream` at the next IDAT chunk's data after checking its length and CRC.
/// Returns 0 with the reason set when there is none or it is damaged.
static int pf_png_rows_next_chunk(pf_png_rows *rows, z_stream *stream) {
    for (;;) {
        if (rows->size - rows->position < 12) {
            pf_png_rows_fail(rows, "truncated PNG data");
            return 0;
        }
        const unsigned char *header = rows->data + rows->position;
        uint32_t length = pf_png_be32(header);
        if (memcmp(header + 4, "IDAT", 4) != 0) {
            pf_png_rows_fail(rows, "Not enough image data");
            return 0;
        }
        if ((size_t)length > rows->chunk_limit) {
            pf_png_rows_fail(rows, "IDAT: chunk data is too large");
            return 0;
        }
        if (length > 0x7fffffffu || (size_t)length > rows->size - rows->position - 12) {
            pf_png_rows_fail(rows, "truncated PNG data");
            return 0;
        }
        uLong crc = crc32(0L, header + 4, 4);
        const unsigned char *chunk = header + 8;
        size_t left = length;
        const unsigned char *cursor = chunk;
        while (left > 0) {
            uInt piece = left > 0x40000000u ? 0x40000000u : (uInt)left;
            crc = crc32(crc, cursor, piece);
            cursor += piece;
            left -= piece;
        }
        if ((uint32_t)crc != pf_png_be32(chunk + length)) {
            pf_png_rows_fail(rows, "IDAT: CRC error");
            return 0;
        }
        rows->position += 12 + (size_t)length;
        if (length == 0) continue;
        stream->next_in = (Bytef *)chunk;
        stream->avail_in = (uInt)length;
        return 1;
    }
}

/// The inflating thread: fills the ring, never past a slot the consumer still needs.
static void *pf_png_rows_inflate(void *argument) {
    pf_png_rows *rows = (pf_png_rows *)argument;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        pf_png_rows_fail(rows, "zlib could not start inflating");
        return NULL;
    }
#if ZLIB_VERNUM >= 0x1290
    // As the row reader (PNG_IGNORE_ADLER32): the IDAT CRCs guard the same bytes.
    inflateValidate(&stream, 0);
#endif
    const size_t ring_bytes = rows->stride * PF_PNG_RING_ROWS;
    const size_t total = rows->stride * rows->height;
    size_t produced = 0, released = 0;
    int ended = 0;
    while (produced < total) {
        if (stream.avail_in == 0 && !pf_png_rows_next_chunk(rows, &stream)) break;
        // Room: up to the end of the ring, the slots released, the image's end, and a
        // few rows at a time so the consumer starts early.
        size_t limit = (released + PF_PNG_RING_ROWS) * rows->stride;
        if (limit > total) limit = total;
        if (produced >= limit) {
            pthread_mutex_lock(&rows->lock);
            while (!rows->cancelled && !rows->failed && rows->released == released) {
                pthread_cond_wait(&rows->changed, &rows->lock);
            }
            released = rows->released;
            int stop = rows->cancelled || rows->failed;
            pthread_mutex_unlock(&rows->lock);
            if (stop) break;
            continue;
        }
        size_t offset = produced % ring_bytes;
        size_t room = limit - produced;
        if (room > ring_bytes - offset) room = ring_bytes - offset;
        if (room > PF_PNG_PUBLISH_ROWS * rows->stride) room = PF_PNG_PUBLISH_ROWS * rows->stride;
        stream.next_out = rows->ring + offset;
        stream.avail_out = (uInt)room;
        int status = inflate(&stream, Z_NO_FLUSH);
        size_t written = room - stream.avail_out;
        ended = status == Z_STREAM_END;
        if (status == Z_STREAM_END && produced + written < total) {
            pf_png_rows_fail(rows, "Not enough image data");
            break;
        }
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
            pf_png_rows_fail(rows, stream.msg != NULL ? stream.msg : "damaged compressed image data");
            break;
        }
        if (status == Z_BUF_ERROR && stream.avail_in != 0) {
            pf_png_rows_fail(rows, "damaged compressed image data");
            break;
        }
        if (written > 0) {
            produced += written;
            pthread_mutex_lock(&rows->lock);
            rows->produced = produced;
            released = rows->released;
            int stop = rows->cancelled;
            pthread_cond_broadcast(&rows->changed);
            pthread_mutex_unlock(&rows->lock);
            if (stop) break;
        }
    }
    // As libpng after the last row: the compressed stream must end (more IDAT chunks
    // as needed, each CRC-checked); data beyond the rows is ignored.
    while (produced == total && !ended) {
        pthread_mutex_lock(&rows->lock);
        int stop = rows->cancelled || rows->failed;
        pthread_mutex_unlock(&rows->lock);
        if (stop) break;
        unsigned char scratch[256];
        if (stream.avail_in == 0 && !pf_png_rows_next_chunk(rows, &stream)) break;
        stream.next_out = scratch;
        stream.avail_out = sizeof scratch;
        int status = inflate(&stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END || stream.avail_out != sizeof scratch) break;
        if (status != Z_OK && status != Z_BUF_ERROR) {
            pf_png_rows_fail(rows, stream.msg != NULL ? stream.msg : "damaged compressed image data");
            break;
        }
        if (status == Z_BUF_ERROR && stream.avail_in != 0) {
            pf_png_rows_fail(rows, "damaged compressed image data");
            break;
        }
    }
    inflateEnd(&stream);
    pthread_mutex_lock(&rows->lock);
    rows->finished = 1;
    pthread_cond_broadcast(&rows->changed);
    pthread_mutex_unlock(&rows->lock);
    return NULL;
}

/// Starts reading the rows of a PNG whose first IDAT chunk (its length field) is at
/// `idat_offset` in `data` (kept, not copied: it must outlive the reader). Returns 0
/// when the thread or memory cannot be had: nothing to stop, read another way.
static inline int pf_png_rows_start(pf_png_rows *rows, const void *data, size_t size, size_t idat_offset,
                                    size_t chunk_limit, uint32_t width, uint32_t height, int channels) {
    memset(rows, 0, sizeof *rows);
    if ((channels != 3 && channels != 4) || width == 0 || height == 0 || idat_offset > size) return 0;
    if ((size_t)width > (SIZE_MAX / PF_PNG_RING_ROWS - 1) / (size_t)channels) return 0;
    rows->data = (const unsigned char *)data;
    rows->size = size;
    rows->position = idat_offset;
    rows->chunk_limit = chunk_limit;
    rows->height = height;
    rows->channels = channels;
    rows->stride = 1 + (size_t)width * (size_t)channels;
    if (rows->stride > (size_t)0x7fffffff / PF_PNG_RING_ROWS) return 0;
    rows->ring = (unsigned char *)malloc(rows->stride * PF_PNG_RING_ROWS);
    if (rows->ring == NULL) return 0;
    if (pthread_mutex_init(&rows->lock, NULL) != 0) {
        free(rows->ring);
        return 0;
    }
    if (pthread_cond_init(&rows->changed, NULL) != 0) {
        pthread_mutex_destroy(&rows->lock);
        free(rows->ring);
        return 0;
    }
    if (pthread_create(&rows->thread, NULL, pf_png_rows_inflate, rows) != 0) {
        pthread_cond_destroy(&rows->changed);
        pthread_mutex_destroy(&rows->lock);
        free(rows->ring);
        return 0;
    }
    rows->started = 1;
    return 1;
}

static inline unsigned char pf_png_paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = (int)a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/// The next row's pixels (`width * channels` bytes, valid until the next call), or NULL
/// with `message` set when the image data is damaged or missing.
static inline const unsigned char *pf_png_rows_next(pf_png_rows *rows) {
    if (!rows->started || rows->next_row >= rows->height) {
        if (rows->started) pf_png_rows_fail(rows, "no more rows");
        return NULL;
    }
    const size_t row = rows->next_row;
    const size_t needed = (row + 1) * rows->stride;
    pthread_mutex_lock(&rows->lock);
    // Done with the row before the previous one: its slot may be refilled.
    if (row >= 1 && row - 1 > rows->released && (row - 1) % PF_PNG_PUBLISH_ROWS == 0) {
        rows->released = row - 1;
        pthread_cond_broadcast(&rows->changed);
    }
    while (rows->produced < needed && !rows->failed) {
        // Waiting: release everything but the previous row first.
        if (row >= 1 && rows->released < row - 1) {
            rows->released = row - 1;
            pthread_cond_broadcast(&rows->changed);
        }
        pthread_cond_wait(&rows->changed, &rows->lock);
    }
    int failed = rows->produced < needed;
    pthread_mutex_unlock(&rows->lock);
    if (failed) return NULL;

    const size_t bytes = rows->stride - 1;
    const size_t bpp = (size_t)rows->channels;
    unsigned char *slot = rows->ring + (row % PF_PNG_RING_ROWS) * rows->stride;
    unsigned char *out = slot + 1;
    const unsigned char *prior = row == 0 ? NULL : rows->ring + ((row - 1) % PF_PNG_RING_ROWS) * rows->stride + 1;
    switch (slot[0]) {
    case 0:
        break;
    case 1:
        for (size_t i = bpp; i < bytes; i++) out[i] = (unsigned char)(out[i] + out[i - bpp]);
        break;
    case 2:
        if (prior != NULL) for (size_t i = 0; i < bytes; i++) out[i] = (unsigned char)(out[i] + prior[i]);
        break;
    case 3:
        if (prior == NULL) {
            for (size_t i = bpp; i < bytes; i++) out[i] = (unsigned char)(out[i] + (out[i - bpp] >> 1));
        } else {
            for (size_t i = 0; i < bpp; i++) out[i] = (unsigned char)(out[i] + (prior[i] >> 1));
            for (size_t i = bpp; i < bytes; i++) out[i] = (unsigned char)(out[i] + (((unsigned)out[i - bpp] + prior[i]) >> 1));
        }
        break;
    case 4:
        if (prior == NULL) {
            // Paeth with no row above is Sub.
            for (size_t i = bpp; i < bytes; i++) out[i] = (unsigned char)(out[i] + out[i - bpp]);
        } else {
            for (size_t i = 0; i < bpp; i++) out[i] = (unsigned char)(out[i] + prior[i]);
            for (size_t i = bpp; i < bytes; i++) out[i] = (unsigned char)(out[i] + pf_png_paeth(out[i - bpp], prior[i], prior[i - bpp]));
        }
        break;
    default:
        pf_png_rows_fail(rows, "bad adaptive filter value");
        return NULL;
    }
    rows->next_row = row + 1;
    return out;
}

/// After the last row: waits for the inflating thread to reach the compressed stream's
/// end. Returns 0 with `message` set when that failed (missing or damaged data after
/// the rows, which libpng refuses too).
static inline int pf_png_rows_finish(pf_png_rows *rows) {
    if (!rows->started) return 0;
    pthread_mutex_lock(&rows->lock);
    while (!rows->finished && !rows->failed) pthread_cond_wait(&rows->changed, &rows->lock);
    int ok = !rows->failed;
    pthread_mutex_unlock(&rows->lock);
    return ok;
}

/// Stops the inflating thread (wherever it is) and frees the reader's memory.
static inline void pf_png_rows_stop(pf_png_rows *rows) {
    if (!rows->started) return;
    pthread_mutex_lock(&rows->lock);
    rows->cancelled = 1;
    pthread_cond_broadcast(&rows->changed);
    pthread_mutex_unlock(&rows->lock);
    pthread_join(rows->thread, NULL);
    pthread_cond_destroy(&rows->changed);
    pthread_mutex_destroy(&rows->lock);
    free(rows->ring);
    rows->ring = NULL;
    rows->started = 0;
}

/// The reason of the first failure, once `pf_png_rows_next` returned NULL.
static inline const char *pf_png_rows_message(pf_png_rows *rows) {
    if (rows->message[0] == 0) return "unknown PNG data error";
    return rows->message;
}
#endif
