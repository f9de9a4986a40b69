/// A shared cache tier operation that failed, as one line naming the address or key and
/// what to do.
public struct RedisCacheError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Hashable {
        /// The `redis://` address cannot be read.
        case badAddress
        /// Redis is down, too slow (past the timeout) or the connection broke.
        case unavailable
        /// Redis refused the write: out of memory under `noeviction`.
        case full
        /// Redis answered with another error.
        case failed
        /// The entry is larger than the tier's size cap: it stays local.
        case tooLarge
        /// No entry for the key (``RedisCache/updateMetadata(forKey:_:)``).
        case entryNotFound
        /// What a shared tier does not do (``RedisCache/removeAll()``).
        case unsupported
    }

    /// The kind of failure.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The one-line message.
    public var description: String { message }
}
