import Foundation

/// Where the shared cache tier's Redis listens: `redis://host:port[/db]`.
///
/// ```swift
/// let address = try RedisAddress(parsing: "redis://127.0.0.1:6379/2")
/// print(address.host, address.port, address.database)   // 127.0.0.1 6379 2
/// ```
public struct RedisAddress: Sendable, Hashable, CustomStringConvertible {
    /// Host name or IP address.
    public var host: String
    /// TCP port, 1…65535. Default 6379.
    public var port: Int
    /// The logical database `SELECT`ed after connecting; `0` for Redis Cluster, which has
    /// only database 0.
    public var database: Int

    /// An address from its parts.
    public init(host: String, port: Int = 6379, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `redis://host[:port][/db]`.
    /// - Throws: ``RedisCacheError`` `.badAddress` naming the text and the expected form.
    public init(parsing text: String) throws(RedisCacheError) {
        // Shown without anything before an '@' (a password is not supported, nor printed).
        let shown: String = {
            guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else { return text }
            return String(text[..<scheme.upperBound] + text[text.index(after: at)...])
        }()
        let bad = { (why: String) in
            RedisCacheError(.badAddress, "\(shown) is not a shared-cache address (\(why)); write redis://host:port or redis://host:port/db")
        }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "redis" else {
            throw bad("the scheme must be redis://")
        }
        guard var host = components.host, !host.isEmpty else { throw bad("no host") }
        // An IPv6 literal comes bracketed (`redis://[::1]:6379`); the resolver wants it bare.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard components.user == nil, components.password == nil else { throw bad("credentials are not supported") }
        guard components.query == nil, components.fragment == nil else { throw bad("a query or fragment means nothing here") }
        let port = components.port ?? 6379
        guard (1...65_535).contains(port) else { throw bad("port \(port) is out of 1…65535") }
        var database = 0
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if !path.isEmpty {
            guard let number = Int(path) else { throw bad("database \(path) is not a number") }
            guard (0...1_000_000).contains(number) else { throw bad("database \(number) is out of 0…1000000") }
            database = number
        }
        self.init(host: host, port: port, database: database)
    }

    /// `redis://host:port/db` (an IPv6 host in brackets).
    public var description: String { "redis://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" }
}
