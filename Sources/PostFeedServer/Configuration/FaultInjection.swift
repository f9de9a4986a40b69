/// Failures the fixture server injects into its data routes, for tests and demos.
///
/// Everything is off by default (``none``). Faults apply to every route except the
/// `/test/…` routes, which always behave exactly as documented.
///
/// Two kinds of knobs:
/// - **Deterministic**: ``failFirst`` requests fail with ``failFirstFault`` (for the whole
///   server, or for each path, see ``failFirstScope``); then the server behaves normally.
///   ``bandwidthLimits`` slow the bodies of given paths down. Use these in tests: the
///   outcome never depends on chance.
/// - **Random shares**: each request draws one number from a generator seeded with ``seed``;
///   the shares are bands laid end to end (500, then 503, then 429, then truncation, reset,
///   stall), so their sum is the chance that a request fails. Sequential requests see the same
///   sequence of faults on every run.
///
/// ```swift
/// // The first two requests to each path get 503 with Retry-After: 1, then all succeed.
/// var faults = FaultInjection()
/// faults.failFirst = 2
/// faults.failFirstFault = .status(503, retryAfter: 1)
/// faults.failFirstScope = .eachPath
///
/// // A flaky demo backend: 100–300 ms latency, 10% of requests fail one way or another.
/// let demo = FaultInjection(latency: .milliseconds(100), latencyJitter: .milliseconds(200),
///                           serverErrorShare: 0.04, rateLimitShare: 0.03, truncationShare: 0.03)
/// ```
public struct FaultInjection: Sendable, Hashable {
    /// One way a request can fail.
    public enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// Answer with this status and an ``APIErrorBody``; with `retryAfter`, also a
        /// `Retry-After: <seconds>` header.
        case status(Int, retryAfter: Int? = nil)
        /// Send the real headers (with the full `Content-Length`), about half of the body,
        /// then close the connection.
        case truncatedBody
        /// Reset the connection (TCP RST, `SO_LINGER` 0) without sending anything.
        case connectionReset
        /// Send the real headers and the first bytes of the body, then send nothing more for
        /// ``FaultInjection/stallDuration`` while keeping the connection open; then close it.
        case stalledBody

        /// A short name for logs and test output, e.g. `status 503 (Retry-After: 1)`.
        public var description: String {
            switch self {
            case .status(let code, let retryAfter):
                return retryAfter.map { "status \(code) (Retry-After: \($0))" } ?? "status \(code)"
            case .truncatedBody: return "truncated body"
            case .connectionReset: return "connection reset"
            case .stalledBody: return "stalled body"
            }
        }
    }

    /// How ``failFirst`` counts requests.
    public enum Scope: Sendable, Hashable {
        /// The first N requests to the server, whatever their path.
        case server
        /// The first N requests to each distinct path (query ignored).
        case eachPath
    }

    /// Added before every response.
    public var latency: Duration
    /// A random extra delay in `0...latencyJitter`, added to ``latency``.
    public var latencyJitter: Duration
    /// Share of requests (0…1) answered `500 Internal Server Error`.
    public var serverErrorShare: Double
    /// Share of requests answered `503 Service Unavailable` with `Retry-After`.
    public var unavailableShare: Double
    /// Share of requests answered `429 Too Many Requests` with `Retry-After`.
    public var rateLimitShare: Double
    /// `Retry-After` seconds sent with random `503` and `429` answers.
    public var retryAfterSeconds: Int
    /// Share of requests whose body is cut short (see ``Fault/truncatedBody``).
    public var truncationShare: Double
    /// Share of requests whose connection is reset (see ``Fault/connectionReset``).
    public var resetShare: Double
    /// Share of requests whose body stalls (see ``Fault/stalledBody``).
    public var stallShare: Double
    /// How long a stalled body stays silent before the server closes the connection.
    public var stallDuration: Duration
    /// Bodies of these paths (exact, query ignored) go out at most this many bytes per
    /// second, in tenth-of-a-second slices: one slow image among fast ones. Empty by default.
    ///
    /// ```swift
    /// FaultInjection(bandwidthLimits: ["/images/img-001.jpg": 8_192])
    /// ```
    public var bandwidthLimits: [String: Int]
    /// Number of requests that fail with ``failFirstFault`` before any other rule applies.
    public var failFirst: Int
    /// The fault the first ``failFirst`` requests get.
    public var failFirstFault: Fault
    /// Whether ``failFirst`` counts for the whole server or for each path.
    public var failFirstScope: Scope
    /// Seed of the generator behind the random shares and the latency jitter.
    public var seed: UInt64

    /// No faults at all.
    public static var none: FaultInjection { FaultInjection() }

    /// Creates a fault plan; every parameter defaults to "off".
    public init(
        latency: Duration = .zero,
        latencyJitter: Duration = .zero,
        serverErrorShare: Double = 0,
        unavailableShare: Double = 0,
        rateLimitShare: Double = 0,
        retryAfterSeconds: Int = 1,
        truncationShare: Double = 0,
        resetShare: Double = 0,
        stallShare: Double = 0,
        stallDuration: Duration = .seconds(30),
        bandwidthLimits: [String: Int] = [:],
        failFirst: Int = 0,
        failFirstFault: Fault = .status(503, retryAfter: 1),
        failFirstScope: Scope = .server,
        seed: UInt64 = 0x5EED
    ) {
        self.latency = latency
        self.latencyJitter = latencyJitter
        self.serverErrorShare = serverErrorShare
        self.unavailableShare = unavailableShare
        self.rateLimitShare = rateLimitShare
        self.retryAfterSeconds = retryAfterSeconds
        self.truncationShare = truncationShare
        self.resetShare = resetShare
        self.stallShare = stallShare
        self.stallDuration = stallDuration
        self.bandwidthLimits = bandwidthLimits
        self.failFirst = failFirst
        self.failFirstFault = failFirstFault
        self.failFirstScope = failFirstScope
        self.seed = seed
    }

    /// Whether any knob is on.
    public var isEnabled: Bool {
        latency > .zero || latencyJitter > .zero || failFirst > 0 || totalShare > 0 || !bandwidthLimits.isEmpty
    }

    /// The chance that a request gets a random fault: the sum of all shares.
    public var totalShare: Double {
        serverErrorShare + unavailableShare + rateLimitShare + truncationShare + resetShare + stallShare
    }

    /// Problems that make this plan meaningless, e.g. a negative share or shares summing past 1.
    /// ``RunningFixtureServer/withRunning(_:isolation:_:)`` refuses a plan with problems.
    public var problems: [String] {
        var problems: [String] = []
        let shares: [(String, Double)] = [
            ("serverErrorShare", serverErrorShare), ("unavailableShare", unavailableShare),
            ("rateLimitShare", rateLimitShare), ("truncationShare", truncationShare),
            ("resetShare", resetShare), ("stallShare", stallShare),
        ]
        for (name, value) in shares where !(0...1).contains(value) {
            problems.append("\(name) is \(value); use a share between 0 and 1")
        }
        if totalShare > 1.000_001 {
            problems.append("the shares add up to \(totalShare); keep their sum at most 1")
        }
        if latency < .zero || latencyJitter < .zero || stallDuration < .zero {
            problems.append("latency, latencyJitter and stallDuration must not be negative")
        }
        for (path, rate) in bandwidthLimits.sorted(by: { $0.key < $1.key }) where rate < 10 {
            problems.append("bandwidth limit \(rate) bytes/s for \(path) is below 10; use 10 or more")
        }
        if failFirst < 0 { problems.append("failFirst is \(failFirst); use 0 or more") }
        if retryAfterSeconds < 0 { problems.append("retryAfterSeconds must not be negative") }
        if case .status(let code, let retryAfter) = failFirstFault {
            if !(200...599).contains(code) { problems.append("failFirstFault status \(code) is not 200…599") }
            if let retryAfter, retryAfter < 0 { problems.append("failFirstFault retryAfter must not be negative") }
        }
        return problems
    }
}
