// Typed wrappers around hiredis for Swift: the commands go through redisCommandArgv
// (binary-safe: every argument with its length), never the variadic, format-string
// redisCommand; the context's fixed-size error buffer is read through a pointer.
#ifndef POSTFEED_CHIREDIS_SHIM_H
#define POSTFEED_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>
#include <sys/time.h>

/// Connects to host:port within `timeout_ms`, then sets the same timeout for every
/// command's send and receive. NULL only when hiredis could not allocate a context.
static inline redisContext *pf_redis_connect(const char *host, int port, long timeout_ms) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    redisContext *context = redisConnectWithTimeout(host, port, tv);
    if (context != NULL && context->err == 0) {
        (void)redisSetTimeout(context, tv);
    }
    return context;
}

/// One command, each argument binary-safe; NULL when the context failed (see pf_redis_err).
static inline redisReply *pf_redis_command(redisContext *context, int argc, const char **argv, const size_t *lengths) {
    return (redisReply *)redisCommandArgv(context, argc, argv, lengths);
}

static inline int pf_redis_err(const redisContext *context) { return context->err; }
static inline const char *pf_redis_errstr(const redisContext *context) { return context->errstr; }

#endif
