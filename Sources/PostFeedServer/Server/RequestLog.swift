import Synchronization

/// One request as the fixture server received it, for tests that assert what a client sent.
public struct RecordedRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The path without the query, e.g. `/api/posts`.
    public var path: String
    /// The raw query without `?`, or `nil`.
    public var query: String?
    /// Header fields with lower-cased names; repeated fields joined with `, `.
    public var headers: [String: String]

    /// Creates a record (the server makes these; tests rarely need to).
    public init(method: String, path: String, query: String?, headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}

/// Thread-safe request counters and a bounded log of recent requests.
final class RequestLog: Sendable {
    private struct State {
        var total = 0
        var perPath: [String: Int] = [:]
        var recent: [RecordedRequest] = []
    }

    /// How many requests ``recent`` keeps.
    static let capacity = 10_000
    private let state = Mutex(State())

    func record(_ request: RecordedRequest) {
        state.withLock { state in
            state.total += 1
            state.perPath[request.path, default: 0] += 1
            if state.recent.count == Self.capacity { state.recent.removeFirst(Self.capacity / 10) }
            state.recent.append(request)
        }
    }

    var total: Int { state.withLock { $0.total } }

    func count(path: String) -> Int { state.withLock { $0.perPath[path] ?? 0 } }

    func count(pathPrefix: String) -> Int {
        state.withLock { state in
            state.perPath.reduce(0) { $0 + ($1.key.hasPrefix(pathPrefix) ? $1.value : 0) }
        }
    }

    var countsByPath: [String: Int] { state.withLock { $0.perPath } }

    var recent: [RecordedRequest] { state.withLock { $0.recent } }

    func reset() { state.withLock { $0 = State() } }
}
