#include "bare_curl.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

/// One easy handle and the buffer its body goes to, reused from transfer to transfer.
typedef struct {
    CURL *easy;
    char *buffer;
    size_t length;
    size_t capacity;
} slot;

static size_t write_body(char *data, size_t size, size_t count, void *context) {
    slot *s = context;
    size_t length = size * count;
    if (!s->buffer) {
        curl_off_t announced = -1;
        curl_easy_getinfo(s->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
        size_t capacity = announced > 0 ? (size_t)announced : 64 * 1024;
        s->buffer = malloc(capacity);
        if (!s->buffer) return 0;
        s->capacity = capacity;
    }
    if (s->length + length > s->capacity) {
        size_t capacity = s->capacity ? s->capacity : 64 * 1024;
        while (capacity < s->length + length) capacity *= 2;
        char *grown = realloc(s->buffer, capacity);
        if (!grown) return 0;
        s->buffer = grown;
        s->capacity = capacity;
    }
    memcpy(s->buffer + s->length, data, length);
    s->length += length;
    return length;
}

static void start(CURLM *multi, slot *s, const char *url) {
    s->length = 0;
    curl_easy_setopt(s->easy, CURLOPT_URL, url);
    curl_multi_add_handle(multi, s->easy);
}

int bare_curl_fetch(const char *const *urls, int count, int concurrency, int fresh_buffers,
                    bare_curl_result *result) {
    memset(result, 0, sizeof *result);
    if (curl_global_init(CURL_GLOBAL_ALL) != CURLE_OK) return -1;
    CURLM *multi = curl_multi_init();
    if (!multi) return -1;
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)concurrency);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)concurrency);

    slot *slots = calloc((size_t)concurrency, sizeof(slot));
    if (!slots) return -1;
    int next = 0, active = 0;
    for (int i = 0; i < concurrency && next < count; i++) {
        slots[i].easy = curl_easy_init();
        if (!slots[i].easy) return -1;
        curl_easy_setopt(slots[i].easy, CURLOPT_WRITEFUNCTION, write_body);
        curl_easy_setopt(slots[i].easy, CURLOPT_WRITEDATA, &slots[i]);
        curl_easy_setopt(slots[i].easy, CURLOPT_PRIVATE, &slots[i]);
        curl_easy_setopt(slots[i].easy, CURLOPT_NOSIGNAL, 1L);
        start(multi, &slots[i], urls[next++]);
        active++;
    }

    while (active > 0) {
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int queued;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            slot *s = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK && status == 200) {
                result->succeeded++;
                result->bytes += (long long)s->length;
            } else {
                result->failed++;
            }
            curl_multi_remove_handle(multi, easy);
            if (fresh_buffers) {
                free(s->buffer);
                s->buffer = NULL;
                s->capacity = 0;
            }
            if (next < count) {
                start(multi, s, urls[next++]);
            } else {
                active--;
            }
        }
        if (active > 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }

    for (int i = 0; i < concurrency; i++) {
        if (slots[i].easy) curl_easy_cleanup(slots[i].easy);
        free(slots[i].buffer);
    }
    free(slots);
    curl_multi_cleanup(multi);
    return 0;
}
