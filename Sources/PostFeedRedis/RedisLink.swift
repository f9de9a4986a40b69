import PostFeedCache
import Dispatch
import Foundation
import Synchronization

/// The shared tier's one connection to Redis and the thread it is used on.
///
/// Every hiredis call runs on the link's own serial queue, never on Swift's cooperative
/// pool; async callers get the reply through a continuation. A connect or a command is
/// bounded by the timeout. A command that fails on a connection that had worked is sent
/// once more on a new connection (a reply late once on a busy machine must not switch the
/// tier off). When Redis is down, slow or the connection breaks, the link is
/// *down*: commands fail at once, without touching the socket, until the reconnect delay
/// (doubling from the first up to the maximum) has passed; then the next command tries to
/// connect again. The first failure of the link's life is reported once through `warn`.
final class RedisLink: Sendable {
    let address: RedisAddress
    private let timeoutMilliseconds: Int
    private let firstDelay: Duration
    private let maxDelay: Duration
    private let warn: @Sendable (String) -> Void
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<Bool>()
    private let state: Mutex<LinkState>
    private let warned = Atomic<Bool>(false)
    let counters = Mutex(RedisCache.Statistics())

    private struct LinkState {
        var connection: RedisConnection?
        /// While down: when the next connect may be tried.
        var retryAt: ContinuousClock.Instant?
        var delay: Duration
        var everConnected = false
    }

    init(address: RedisAddress, timeout: Duration, reconnectDelay: Duration, maxReconnectDelay: Duration,
         warn: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.timeoutMilliseconds = Self.milliseconds(timeout)
        self.firstDelay = reconnectDelay
        self.maxDelay = max(reconnectDelay, maxReconnectDelay)
        self.warn = warn
        self.queue = DispatchQueue(label: "postfeed.redis", qos: .userInitiated)
        self.state = Mutex(LinkState(delay: reconnectDelay))
        queue.setSpecific(key: marker, value: true)
    }

    /// Whole milliseconds in `duration`, at least 1.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int.max / 2 }
        return max(1, Int(clamping: whole) &+ Int(attoseconds / 1_000_000_000_000_000))
    }

    /// Runs one command on the link's queue; the caller's task holds no thread meanwhile.
    /// `retryable`: after a failure on a connection that had worked (a reply late once on a
    /// busy machine, a connection Redis closed), the command is sent once more on a new
    /// connection before the link goes down; `false` for a command that must not run twice
    /// (`SET … NX`).
    func run(_ arguments: [Data], retryable: Bool = true) async -> Result<RedisReply, RedisFailure> {
        await perform { [self] in execute(arguments, retryable: retryable) }
    }

    /// Runs `job` on the link's queue after every job submitted before it.
    func perform<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: job()) }
        }
    }

    /// Runs one command on the link's queue and blocks the calling thread until it is done
    /// (at most about the timeout): for the synchronous ``DataCaching`` calls.
    func runBlocking(_ arguments: [Data]) -> Result<RedisReply, RedisFailure> {
        if DispatchQueue.getSpecific(key: marker) == true { return execute(arguments) }
        return queue.sync { execute(arguments) }
    }

    /// On the queue: connects when needed (unless down), sends, classifies the reply.
    private func execute(_ arguments: [Data], retryable: Bool = true) -> Result<RedisReply, RedisFailure> {
        let result: Result<RedisReply, RedisFailure> = state.withLock { state in
            var attemptsLeft = retryable ? 2 : 1
            while true {
                attemptsLeft -= 1
                let reused = state.connection != nil
                if let result = attempt(arguments, &state, mayRetry: reused && attemptsLeft > 0) { return result }
            }
        }
        if case .failure(let failure) = result { note(failure) }
        return result
    }

    /// One try: the result, or `nil` when the connection failed and `mayRetry` (it is then
    /// dropped, and the caller tries once more on a new one).
    private func attempt(_ arguments: [Data], _ state: inout LinkState, mayRetry: Bool) -> Result<RedisReply, RedisFailure>? {
        if state.connection == nil {
            if let retryAt = state.retryAt, ContinuousClock.now < retryAt {
                return .failure(.unavailable("down, retrying later"))
            }
            do {
                state.connection = try RedisConnection(address: address, timeoutMilliseconds: timeoutMilliseconds)
                if state.everConnected { counters.withLock { $0.reconnects += 1 } }
                state.everConnected = true
            } catch {
                markDown(&state)
                return .failure(error)
            }
        }
        guard let connection = state.connection else { return .failure(.unavailable("no connection")) }
        do {
            let reply = try connection.command(arguments)
            state.retryAt = nil
            state.delay = firstDelay
            if case .error(let message) = reply {
                return .failure(message.hasPrefix("OOM") ? .full(message) : .failed(message))
            }
            return .success(reply)
        } catch {
            state.connection = nil
            if mayRetry { return nil }
            markDown(&state)
            return .failure(error)
        }
    }

    private func markDown(_ state: inout LinkState) {
        state.retryAt = ContinuousClock.now + state.delay
        state.delay = min(state.delay * 2, maxDelay)
    }

    /// Counts a failure; the first of the link's life is also reported.
    private func note(_ failure: RedisFailure) {
        counters.withLock { counters in
            switch failure {
            case .unavailable: counters.unavailable += 1
            case .full: counters.full += 1
            case .failed: counters.errors += 1
            }
        }
        guard !warned.exchange(true, ordering: .relaxed) else { return }
        let why: String
        switch failure {
        case .unavailable(let message): why = "unavailable (\(message))"
        case .full(let message): why = "full (\(message))"
        case .failed(let message): why = "failing (\(message))"
        }
        warn("shared cache \(address) \(why); reads go on without it and it is used again when it answers "
            + "(this warning is shown once; see the shared tier's statistics for counts)")
    }
}
