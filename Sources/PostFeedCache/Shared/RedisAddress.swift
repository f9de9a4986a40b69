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
        let bad = { (why: String) in
            RedisCacheError(.badAddress, "\(text) is not a shared-cache address (\(why)); write redis://host:port or redis://host:port/db")
        }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "redis" else {
            throw bad("the scheme must be redis://")
        }
        guard let host = components.host, !host.isEmpty else { throw bad("no host") }
        guard components.user == nil, components.password == nil else { throw bad("credentials are not supported") }
        let port = components.port ?? 6379
        guard (1...65_535).contains(port) else { throw bad("port \(port) is out of 1…65535") }
        var database = 0
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if !path.isEmpty {
            guard let number = Int(path), (0...1_000_000).contains(number) else { throw bad("database \(path) is not a number") }
            database = number
        }
        self.init(host: host, port: port, database: database)
    }

    /// `redis://host:port/db`.
    public var description: String { "redis://\(host):\(port)/\(database)" }
}
