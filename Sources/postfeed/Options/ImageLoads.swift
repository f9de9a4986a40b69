import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedHTTP
import Synchronization

/// What a printed page shows for one post's image.
enum PageImage: Sendable {
    /// The post has no image (or images are off).
    case none
    /// The image, or why there is none, as ``FeedClient/image(for:priority:)`` gave it.
    case arrived(PostImage)
    /// Still loading when the page's text went out.
    case loading(URL)

    var summary: ImageSummary? {
        switch self {
        case .none: nil
        case .arrived(let image): ImageSummary(image)
        case .loading(let url): ImageSummary(loading: url)
        }
    }
}

/// The image fetches of one command's printed pages.
///
/// A page's text waits for its images at most `wait` (`--image-wait`): one image served at
/// 1 KiB/s held `list` for 32 s. Those still loading then go on in the background, and
/// ``finish()`` waits for them before the process exits, so the next run finds them in the
/// cache. Ctrl-C or SIGTERM ends that wait at once. Those that fail in the background are
/// counted by reason for ``failureSummary()``: nothing else would ever say so.
final class ImageLoads: Sendable {
    let client: FeedClient
    let wait: Duration
    /// Fetches started and not finished, across pages.
    private let inFlight = Countdown()
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// Background fetches that failed, grouped by kind, in the order the kinds first came;
    /// each group said with the words of its first failure.
    private let failures = Mutex<[(kind: FailureKind, reason: String, count: Int)]>([])
    /// The URLs of the failed fetches, in the order they failed (for the summary to name).
    private let failedURLs = Mutex<[URL]>([])

    init(client: FeedClient, wait: Duration) {
        self.client = client
        self.wait = wait
    }

    /// The images of `posts`, in order: those that arrived within ``wait``, the others as
    /// `.loading` (their fetches go on). Returns at once, with nothing fetched, when the task
    /// is cancelled (an interrupted run prints what it loaded without waiting).
    func images(for posts: [Post]) async -> [PageImage] {
        guard !Task.isCancelled else { return posts.map { _ in .none } }
        let slots = ImageSlots(count: posts.count)
        for (index, post) in posts.enumerated() {
            inFlight.add()
            let task = Task { [client, inFlight] in
                let image = await client.image(for: post)
                let late = slots.deliver(image.map(PageImage.arrived) ?? PageImage.none, at: index)
                if late, let error = image?.error { self.recordFailure(error) }
                inFlight.done()
            }
            tasks.withLock { $0.append(task) }
        }
        await slots.arrivals.wait(until: .now + wait)
        let arrived = slots.closeWindow()
        return posts.indices.map { index in
            if let image = arrived[index] { return image }
            return client.backend.imageURL(for: posts[index]).map(PageImage.loading) ?? .none
        }
    }

    /// Waits for the images still loading, so they are cached for the next run, saying so on
    /// stderr when that takes noticeably long. Bounded by what their requests may take
    /// (every attempt's total timeout and the waits between them). Returns the signal
    /// (SIGINT, SIGTERM) that cut the wait short: the fetches left are cancelled.
    func finish() async -> Int32? {
        guard inFlight.remaining > 0 else { return nil }
        let limit = Self.longestFetch(client.configuration)
        let (_, signal) = await Interruption.run { [inFlight] in
            let notice = Task {
                try await Task.sleep(for: Self.quietWait)
                let count = inFlight.remaining
                guard count > 0 else { return }
                Terminal.note(
                    "postfeed: finishing \(count) image\(count == 1 ? "" : "s") in the background for the next run "
                        + "(Ctrl-C skips)")
            }
            await inFlight.wait(until: .now + limit)
            notice.cancel()
        }
        if signal == nil {
            let unfinished = inFlight.remaining
            if unfinished > 0 {
                record(.unfinished, "still loading after \(Self.seconds(limit)) s, when postfeed stopped waiting", count: unfinished)
            }
        }
        cancel()
        return signal
    }

    // MARK: Failures in the background

    /// One line for stderr saying how many background fetches failed, which, and why,
    /// grouped by reason, e.g. `19 images could not be fetched from 127.0.0.1:6969 (the
    /// first http://127.0.0.1:6969/images/img-001.jpg), the next run tries again: HTTP 429:
    /// the server is rate-limiting (Retry-After 30)`; one image is named by its URL. `nil`
    /// when none failed.
    func failureSummary() -> String? {
        let groups = failures.withLock { $0 }
        let total = groups.reduce(0) { $0 + $1.count }
        guard total > 0 else { return nil }
        let reasons =
            groups.count == 1
            ? groups[0].reason
            : groups.map { "\($0.count) × \($0.reason)" }.joined(separator: "; ")
        let which = Self.naming(failedURLs.withLock { $0 }, total: total)
        return "postfeed: \(total) image\(total == 1 ? "" : "s") could not be fetched\(which.from)\(which.named), the next run tries again: \(reasons)"
    }

    /// What the summary says of the failed images' URLs: ` (<url>)` for one image; for
    /// several, ` from <host>` (or ` from N hosts`) and ` (the first <url>)`. URLs without
    /// credentials, cut as messages cut them, control characters escaped.
    static func naming(_ urls: [URL], total: Int) -> (from: String, named: String) {
        guard let first = urls.first else { return ("", "") }
        let shown = ImagePipelineError.shown(URLUserInfo.removed(from: first.absoluteString)).terminalLine
        if total == 1 { return ("", " (\(shown))") }
        let hosts = Set(urls.map(Self.host(of:)))
        let from = hosts.count == 1 ? hosts.first.map { " from \($0.terminalLine)" } ?? "" : " from \(hosts.count) hosts"
        return (from, " (the first \(shown))")
    }

    /// `host[:port]` of `url`, without credentials.
    private static func host(of url: URL) -> String {
        guard let host = url.host else { return "?" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    private func recordFailure(_ error: ImagePipelineError) {
        // A cancelled fetch (Ctrl-C, the wait's end) is counted by `finish()`, not here.
        guard error.code != .cancelled else { return }
        if let url = error.url { failedURLs.withLock { $0.append(url) } }
        record(FailureKind(error), error.summary, count: 1)
    }

    private func record(_ kind: FailureKind, _ reason: String, count: Int) {
        failures.withLock { groups in
            if let index = groups.firstIndex(where: { $0.kind == kind }) {
                groups[index].count += count
            } else {
                groups.append((kind, reason, count))
            }
        }
    }

    /// Which failures count as alike in the summary, by their codes, never their words:
    /// the pipeline's code, the HTTP layer's code, the timeout hit and the status.
    enum FailureKind: Hashable {
        case failed(ImagePipelineError.Code, HTTPClientError.Code?, HTTPClientError.Timeout?, status: Int?)
        /// Still loading when postfeed stopped waiting.
        case unfinished

        init(_ error: ImagePipelineError) {
            let http = error.underlying
            self = .failed(error.code, http?.code, http?.timeout, status: http?.status)
        }
    }

    private static func seconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds)
    }

    /// Stops every fetch still running (an interrupted or failed run).
    func cancel() {
        tasks.withLock { tasks in
            tasks.forEach { $0.cancel() }
            tasks.removeAll()
        }
    }

    /// How long the background wait goes unmentioned.
    static let quietWait: Duration = .milliseconds(500)

    /// The longest one image request may take with its retries: its overall limit
    /// (`--timeout`) when it has one, else each attempt's total timeout plus the longest
    /// backoff between attempts. Clamped, never trapping.
    static func longestFetch(_ configuration: FeedClient.Configuration) -> Duration {
        let day = Duration.seconds(86_400)
        if let overall = configuration.http.timeouts.overall {
            return min(max(overall, .zero), day) + .seconds(1)
        }
        let total = min(max(configuration.http.timeouts.total, .zero), day)
        let backoff = min(max(configuration.http.retryPolicy.maximumDelay, .zero), day)
        let attempts = min(max(configuration.http.retryPolicy.maximumAttempts, 1), 10)
        return total * attempts + backoff * (attempts - 1) + .seconds(1)
    }
}

/// Waits for the images still loading after the text is out (see ``ImageLoads/finish()``);
/// a signal ends the wait, and the run, at once: the reader's place is already saved.
func finishImages(_ loads: ImageLoads) async throws {
    flushStandardOutput()
    guard let signal = await loads.finish() else {
        if let summary = loads.failureSummary() { Terminal.note(summary) }
        return
    }
    Terminal.note("postfeed: interrupted by \(Interruption.name(of: signal)); images still loading are fetched again next time")
    throw ExitCode(Interruption.exitStatus(for: signal))
}

/// How a command that exits ends its prefetches: those started (the next page, the images
/// handed to the pipeline) finish, each bounded by --timeout, and are stored, so the next
/// run needs no request for them; none starts after. Shutdown then cancels no transfer.
/// Ctrl-C skips the wait.
func finishPrefetching(_ client: FeedClient) async throws {
    let (_, signal) = await Interruption.run { await client.finishPrefetching(then: .startNoMore) }
    if let signal { throw ExitCode(Interruption.exitStatus(for: signal)) }
}

/// One page's image slots, filled as fetches finish.
private final class ImageSlots: Sendable {
    private struct State {
        var images: [PageImage?]
        /// The page's text has gone out: what arrives now is for the next run.
        var closed = false
    }

    private let state: Mutex<State>
    let arrivals: Countdown

    init(count: Int) {
        state = Mutex(State(images: Array(repeating: nil, count: count)))
        arrivals = Countdown(count)
    }

    /// Fills slot `index`; returns whether the page was already out (the image came late).
    func deliver(_ image: PageImage, at index: Int) -> Bool {
        let late = state.withLock { state in
            state.images[index] = image
            return state.closed
        }
        arrivals.done()
        return late
    }

    /// The images that arrived, from now on counting later ones as late.
    func closeWindow() -> [PageImage?] {
        state.withLock { state in
            state.closed = true
            return state.images
        }
    }
}

/// Work in flight that callers can wait for: until none is left, a deadline passes, or the
/// waiting task is cancelled, whichever comes first.
final class Countdown: Sendable {
    private struct State {
        var remaining: Int
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state: Mutex<State>

    init(_ count: Int = 0) {
        state = Mutex(State(remaining: max(0, count)))
    }

    var remaining: Int { state.withLock { $0.remaining } }

    func add() {
        state.withLock { $0.remaining += 1 }
    }

    /// One piece of work finished; wakes the waiters when it was the last.
    func done() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining = max(0, state.remaining - 1)
            guard state.remaining == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        woken.forEach { $0.resume() }
    }

    /// Returns when nothing is left, at `deadline`, or when the task is cancelled.
    func wait(until deadline: ContinuousClock.Instant) async {
        let id = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.release(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // A cancel or timer that fired before this registration finds nothing to
                // release; the checks under the lock see that it did.
                let resumeNow = state.withLock { state -> Bool in
                    if state.remaining == 0 || Task.isCancelled || ContinuousClock.now >= deadline { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            release(id)
        }
        timer.cancel()
    }

    private func release(_ id: UUID) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
