/// Why one command got no usable reply, as the link sees it.
enum RedisFailure: Error, Sendable {
    /// No connection, a timeout or a broken connection: the tier is skipped for a while.
    case unavailable(String)
    /// An `OOM` error reply: Redis is full and refuses writes.
    case full(String)
    /// Any other error reply.
    case failed(String)

    var message: String {
        switch self {
        case .unavailable(let text), .full(let text), .failed(let text): text
        }
    }
}
