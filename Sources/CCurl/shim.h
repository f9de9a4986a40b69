// Typed wrappers around libcurl's variadic calls, which Swift cannot call directly.
// One `static inline` function per argument type, as swift-corelibs-foundation's
// CFURLSessionInterface and GRDB's shim do.
#ifndef POSTFEED_CCURL_SHIM_H
#define POSTFEED_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*pf_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*pf_curl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                         curl_off_t ultotal, curl_off_t ulnow);

// MARK: curl_easy_setopt
static inline CURLcode pf_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_data_callback(CURL *handle, CURLoption option, pf_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pf_easy_setopt_xferinfo_callback(CURL *handle, pf_curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

// MARK: curl_easy_getinfo
static inline CURLcode pf_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode pf_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode pf_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode pf_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// MARK: curl_multi_setopt
static inline CURLMcode pf_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// MARK: CURLMsg
// `CURLMsg.data` is a union; reading its `result` member from Swift is awkward.
static inline CURLcode pf_msg_result(const CURLMsg *message) {
    return message->data.result;
}

// MARK: the engine thread's name
// prctl is variadic too. Names the calling thread for `top -H`, `perf` and debuggers;
// the kernel keeps the first 15 bytes.
#ifdef __linux__
#include <sys/prctl.h>
static inline void pf_name_current_thread(const char *name) {
    (void)prctl(PR_SET_NAME, name, 0, 0, 0);
}
#else
static inline void pf_name_current_thread(const char *name) { (void)name; }
#endif

#endif
