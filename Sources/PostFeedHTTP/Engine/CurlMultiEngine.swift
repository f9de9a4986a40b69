internal import CCurl
import Foundation
import Logging
import Synchronization

/// One curl multi handle driven by one dedicated thread.
///
/// Callers hand transfers over through a locked inbox and wake the thread with
/// `curl_multi_wakeup`; the thread adds them to the multi handle in priority order within
/// the connection caps, runs `curl_multi_perform`, completes finished transfers, and
/// sleeps in `curl_multi_poll`. Thousands of queued requests cost one thread and at most
/// `maximumConnections` easy handles.
final class CurlMultiEngine: @unchecked Sendable {
    private enum Command {
        case add(Transfer)
        case cancel(Transfer)
        case shutdown
    }

    /// What callers hand the engine thread, and whether it sleeps in `curl_multi_poll`.
    private struct Inbox {
        var commands: [Command] = []
        var accepting = true
        /// Set by the engine thread just before `curl_multi_poll` (with the inbox empty),
        /// cleared by the first caller that wakes it. A caller that finds it clear skips
        /// `curl_multi_wakeup`: the engine thread looks at the inbox before it sleeps again.
        /// Under load that halves the engine's system calls (one `sendto` per request).
        var sleeping = false

        /// Queues `command` and wakes the engine thread if it sleeps.
        mutating func post(_ command: Command, multi: UnsafeMutableRawPointer) {
            commands.append(command)
            if sleeping {
                sleeping = false
                curl_multi_wakeup(multi)
            }
        }
    }

    /// The engine thread's name: at most 15 bytes, the kernel's limit.
    static let threadName = "postfeed-curl"

    struct Limits: Sendable {
        var maximumConnections: Int
        var maximumConnectionsPerHost: Int
    }

    private let multi: UnsafeMutableRawPointer
    private let limits: Limits
    private let logger: Logger
    private let inbox = Mutex<Inbox>(Inbox())
    private let stopped = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// Whether the engine thread was started: by ``start()``, the first ``submit(_:)``, or
    /// shutdown (which the thread carries out). No thread before that.
    private let threadStarted = Atomic<Bool>(false)

    // MARK: Engine-thread state
    /// Queued transfers, highest priority first, then in arrival order among hosts with room.
    private var waiting = WaitingRoom<Transfer>(levels: HTTPPriority.allCases.count)
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    private var runningPerHost: [String: Int] = [:]
    private var handlePool: [EasyHandle] = []
    private var stallWatch = StallWatch()
    /// One name lookup per origin at a time (see ``NameLookupGate``).
    private var names = NameLookupGate<Transfer>()

    init(limits: Limits, logger: Logger) throws(HTTPClientError) {
        guard CurlGlobal.ensureInitialised(), let multi = curl_multi_init() else {
            throw HTTPClientError(.curl, url: nil, detail: "curl_multi_init failed")
        }
        self.multi = multi
        self.limits = limits
        self.logger = logger
        _ = pf_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maximumConnections)
        _ = pf_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maximumConnectionsPerHost)
        _ = pf_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limits.maximumConnections)
        _ = pf_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    }

    /// Whether the engine thread has been started.
    var isStarted: Bool { threadStarted.load(ordering: .acquiring) }

    /// Starts the engine thread unless it was started already.
    func start() {
        guard !threadStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = Self.threadName
        thread.start()
    }

    // MARK: Called from any thread

    /// Queues `transfer`; its completion is resumed on the engine thread.
    ///
    /// Every `curl_multi_wakeup` happens under the inbox lock while `accepting` is still
    /// true: once `.shutdown` is in the inbox the engine thread may free the multi handle at
    /// any moment, so a wakeup after unlocking could touch freed memory (and write into
    /// whatever descriptor reused the number of curl's wakeup socket).
    func submit(_ transfer: Transfer) {
        start()
        let accepted = inbox.withLock { state -> Bool in
            guard state.accepting else { return false }
            state.post(.add(transfer), multi: multi)
            return true
        }
        if !accepted {
            transfer.finish(.failure(HTTPClientError(.shutdown, url: transfer.request.url)))
        }
    }

    /// Asks the engine thread to drop `transfer` now, wherever it is. After shutdown began
    /// there is nothing to do: shutdown fails it (and the flag stops its body at once).
    func cancel(_ transfer: Transfer) {
        transfer.markCancelled()
        inbox.withLock { state in
            guard state.accepting else { return }
            state.post(.cancel(transfer), multi: multi)
        }
    }

    /// Fails every queued and running transfer with `.shutdown` and stops the thread.
    func shutdown() async {
        requestShutdown()
        await withCheckedContinuation { continuation in
            let resumeNow = stopped.withLock { state -> Bool in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Starts shutdown without waiting (for `deinit` of the owning client).
    func requestShutdown() {
        inbox.withLock { state in
            guard state.accepting else { return }
            state.accepting = false
            state.post(.shutdown, multi: multi)
        }
        // The thread applies the shutdown (fails what is queued, frees the multi handle),
        // also when no request ever started it.
        start()
    }

    // MARK: Engine thread

    private func run() {
        nameThisThread()
        var stopping = false
        while !stopping {
            stopping = drainInbox()
            if stopping { break }
            startQueued()
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            // All three every time: a busy engine (transfers ending each turn) must still
            // open origins whose names resolved.
            let ended = collectFinished() + failStalled()
            let opened = names.openResolved(Self.nameResolved)
            if ended > 0 || opened {
                startQueued()
                continue  // new transfers need a perform before sleeping
            }
            let inboxEmpty = inbox.withLock { state -> Bool in
                state.sleeping = state.commands.isEmpty
                return state.sleeping
            }
            guard inboxEmpty else { continue }
            // curl wakes earlier for its own timeouts; the stall watch for the next stall due.
            curl_multi_poll(multi, nil, 0, stallWatch.pollTimeout(now: .now), nil)
        }
        failEverything()
        curl_multi_cleanup(multi)
        handlePool.removeAll()
        let waiters = stopped.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Gives the engine thread its name in the kernel too, where `top -H`, `perf`, `gdb`
    /// and `/proc/<pid>/task/*/comm` see it. On Linux, Foundation's `Thread.name` set
    /// before `start()` stays inside Foundation, and the thread would keep the name of
    /// whichever thread created it (often a Dispatch worker).
    private func nameThisThread() {
        pf_name_current_thread(Self.threadName)
    }

    /// Applies queued commands; returns `true` when shutdown was requested.
    private func drainInbox() -> Bool {
        let commands = inbox.withLock { state -> [Command] in
            state.sleeping = false
            defer { state.commands.removeAll(keepingCapacity: true) }
            return state.commands
        }
        var stopping = false
        for command in commands {
            switch command {
            case .add(let transfer):
                if transfer.isCancelled {
                    transfer.finish(.failure(HTTPClientError(.cancelled, url: transfer.request.url)))
                } else {
                    waiting.append(transfer, level: transfer.request.priority.rawValue, origin: transfer.origin.key)
                }
            case .cancel(let transfer):
                cancelNow(transfer)
            case .shutdown:
                stopping = true
            }
        }
        return stopping
    }

    private func cancelNow(_ transfer: Transfer) {
        let error = HTTPClientError(.cancelled, url: transfer.request.url)
        if let easy = transfer.easy, running[easy.raw] === transfer {
            detach(transfer, easy: easy)
            transfer.finish(.failure(error))
            logger.debug("cancelled running transfer", metadata: ["url": "\(URLUserInfo.removed(from: transfer.request.url.absoluteString))"])
            return
        }
        if waiting.remove(transfer, level: transfer.request.priority.rawValue, origin: transfer.origin.key) {
            transfer.finish(.failure(error))
        }
        // Otherwise it finished already, or its `.add` is still behind us in the inbox and
        // will see the cancel flag.
    }

    /// Moves queued transfers into the multi handle, highest priority first, as long as
    /// the total and per-host caps allow (one per origin while its name is looked up).
    private func startQueued() {
        while running.count < limits.maximumConnections,
            let transfer = waiting.popFirst(where: { origin in
                runningPerHost[origin, default: 0] < names.limit(forOrigin: origin, cap: limits.maximumConnectionsPerHost)
            })
        {
            start(transfer)
        }
    }

    /// Whether curl got past `transfer`'s name lookup (or the proxy's).
    private static func nameResolved(_ transfer: Transfer) -> Bool {
        guard let easy = transfer.easy else { return false }
        return easy.offset(CURLINFO_NAMELOOKUP_TIME_T) > 0 || easy.offset(CURLINFO_CONNECT_TIME_T) > 0
    }

    /// The transfers waiting for the origin of a transfer whose name did not resolve fail
    /// with its error at once: they would ask the resolver the same question.
    private func failWaiters(after error: HTTPClientError, origin: String) {
        for transfer in waiting.removeAll(origin: origin) {
            transfer.finish(.failure(HTTPClientError(
                error.code, url: transfer.request.url, curlCode: error.curlCode, curlMessage: error.curlMessage,
                detail: error.detail)))
        }
    }

    private func start(_ transfer: Transfer) {
        guard let easy = handlePool.popLast() ?? EasyHandle() else {
            transfer.finish(.failure(HTTPClientError(.curl, url: transfer.request.url, detail: "curl_easy_init failed")))
            return
        }
        if let failure = EasyHandleConfigurator.configure(easy, for: transfer) {
            recycle(easy)
            transfer.finish(.failure(failure))
            return
        }
        transfer.easy = easy
        running[easy.raw] = transfer
        runningPerHost[transfer.origin.key, default: 0] += 1
        names.started(transfer, origin: transfer.origin.key, hostIsAddress: transfer.origin.hostIsAddress)
        let now = ContinuousClock.now
        transfer.startedAt = now
        stallWatch.started(transfer, at: now)
        curl_multi_add_handle(multi, easy.raw)
    }

    /// Fails the running transfers that received nothing for their stall limit (see
    /// ``StallWatch``), as curl fails one that outlasts its total limit.
    private func failStalled() -> Int {
        let now = ContinuousClock.now
        guard stallWatch.isDue(at: now) else { return 0 }
        let stalled = stallWatch.stalled(among: running.values, now: now) { transfer in
            guard let easy = transfer.easy else { return nil }
            let ready = easy.offset(CURLINFO_PRETRANSFER_TIME_T)
            if ready > 0 { return .microseconds(ready) }
            // A reused connection may be ready within the microsecond: bytes of the request
            // already sent say it is.
            return easy.long(CURLINFO_REQUEST_SIZE) > 0 ? .zero : nil
        }
        for (transfer, limit) in stalled {
            guard let easy = transfer.easy else { continue }
            detach(transfer, easy: easy)
            transfer.finish(.failure(HTTPClientError(
                .timedOut, url: transfer.request.url, timeout: .stall, detail: "nothing received for \(limit)")))
            logger.debug("stalled transfer failed", metadata: ["url": "\(URLUserInfo.removed(from: transfer.request.url.absoluteString))"])
        }
        return stalled.count
    }

    /// Reads `CURLMSG_DONE` messages and completes those transfers.
    private func collectFinished() -> Int {
        var finished = 0
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                let transfer = running[raw], let easy = transfer.easy
            else { continue }
            let code = pf_msg_result(message)
            let result = CurlOutcomeMapper.result(of: transfer, easy: easy, code: code)
            // The waiters share this name only when this transfer was the origin's lookup
            // and failed on the origin's own name, not on a host it was redirected to.
            let originNameFailed = code == CURLE_COULDNT_RESOLVE_HOST && transfer.settings.proxy == nil
                && names.isLookingUp(transfer, origin: transfer.origin.key) && easy.long(CURLINFO_REDIRECT_COUNT) == 0
            detach(transfer, easy: easy, nameResolved: code == CURLE_OK || Self.nameResolved(transfer))
            if originNameFailed, case .failure(let error) = result {
                failWaiters(after: error, origin: transfer.origin.key)
            }
            if case .success(let outcome) = result {
                logger.debug(
                    "\(transfer.request.method) \(URLUserInfo.removed(from: transfer.request.url.absoluteString)) → \(outcome.status)",
                    metadata: CurlOutcomeMapper.logMetadata(outcome.metrics))
            }
            transfer.finish(result)
            finished += 1
        }
        return finished
    }

    private func detach(_ transfer: Transfer, easy: EasyHandle, nameResolved: Bool = false) {
        names.ended(transfer, origin: transfer.origin.key, nameResolved: nameResolved)
        curl_multi_remove_handle(multi, easy.raw)
        running[easy.raw] = nil
        runningPerHost[transfer.origin.key, default: 1] -= 1
        if runningPerHost[transfer.origin.key] == 0 { runningPerHost[transfer.origin.key] = nil }
        transfer.easy = nil
        recycle(easy)
    }

    private func recycle(_ easy: EasyHandle) {
        EasyHandleConfigurator.detach(easy)
        if handlePool.count < limits.maximumConnections { handlePool.append(easy) }
    }

    private func failEverything() {
        for transfer in Array(running.values) {
            if let easy = transfer.easy { detach(transfer, easy: easy) }
            transfer.finish(.failure(HTTPClientError(.shutdown, url: transfer.request.url)))
        }
        for transfer in waiting.removeAll() {
            transfer.finish(.failure(HTTPClientError(.shutdown, url: transfer.request.url)))
        }
        // Late submissions that raced with shutdown.
        let late = inbox.withLock { state -> [Command] in
            defer { state.commands.removeAll() }
            return state.commands
        }
        for case .add(let transfer) in late {
            transfer.finish(.failure(HTTPClientError(.shutdown, url: transfer.request.url)))
        }
    }
}
