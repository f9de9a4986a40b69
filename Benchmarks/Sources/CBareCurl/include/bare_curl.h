// The baseline for the fetch benchmark: libcurl's multi interface driven the way its
// own examples do it, with nothing between curl and the bytes.
#ifndef POSTFEED_BARE_CURL_H
#define POSTFEED_BARE_CURL_H

typedef struct {
    /// Body bytes received over all transfers that ended with HTTP 200.
    long long bytes;
    int succeeded;
    int failed;
} bare_curl_result;

/// Fetches `count` URLs over one multi handle with at most `concurrency` transfers (and
/// connections) at once; each body is collected in memory, then dropped. With
/// `fresh_buffers` every body gets its own malloc'd buffer (sized by Content-Length),
/// freed when the transfer ends, as an API that hands bodies to its caller must do;
/// without, each slot reuses one buffer. Returns 0, or -1 when curl could not be set up.
int bare_curl_fetch(const char *const *urls, int count, int concurrency, int fresh_buffers,
                    bare_curl_result *result);

#endif
