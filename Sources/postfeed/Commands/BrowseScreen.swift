import Foundation
import PostFeed
import PostFeedPreview
import PostFeedImaging

/// One thing `browse` is told, in the one stream its loop consumes: a key, a signal, or a
/// load that finished or got further.
enum BrowseEvent: Sendable {
    case key(RawTerminal.Key)
    case resize
    /// Ctrl-Z: the terminal restored, the process stopped until `fg`.
    case suspend
    /// SIGCONT (`fg`): the terminal raw again, the screen drawn again.
    case continued
    case terminate
    /// A job ended: what it changes, applied on the loop unless a newer job of its kind
    /// replaced it or it was cancelled.
    case finished(BrowseJob, id: Int, apply: @Sendable (BrowseScreen) -> Void)
    /// A job says how far it got (shown as the loading indicator).
    case progress(BrowseJob, id: Int, String)
    /// Time passed: the background catalog's progress is read again.
    case tick
}

/// The kinds of work `browse` runs off its loop, at most one of each at a time.
enum BrowseJob: Int, Hashable, Sendable, Comparable {
    case open, refresh, goTo, page, more, search, detail, preview, view, thumbnails, revalidate, poll, detailCopy

    static func < (lhs: BrowseJob, rhs: BrowseJob) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `browse`'s state and its loop's steps. Never frozen: every load (pages, `g`, refresh,
/// a mode's opening, an image's details) runs as a cancellable task whose result comes
/// back as an event, while keys keep being handled against what is on screen. Drawing is
/// ``frame()``, a function of this state, laid out by ``BrowseLayout`` for the size.
///
/// With keys from a pipe each key waits until the previous key's loads ended, and one
/// frame is drawn per key: the output depends only on the keys, never on timing.
///
/// Not `Sendable`: it lives on the command's loop; jobs capture only the client and values.
final class BrowseScreen {
    let client: FeedClient
    let terminal: RawTerminal
    let events: AsyncStream<BrowseEvent>.Continuation
    /// Keys come from a pipe: one frame per key, each key after the previous one's loads.
    let piped: Bool
    /// Colour the header (a terminal without `NO_COLOR`).
    let colour: Bool
    /// Posts on one screen: `--rows`, else what fits the terminal (changes on resize).
    var visibleCount: Int
    /// Whether `--rows` fixed `visibleCount`, so a resize only re-lays out.
    let fixedCount: Bool

    var mode: ListMode = .infinite
    /// Whether `mode`'s place is loaded; until then nothing is saved and nothing moves.
    var opened = false
    /// The first opening has not ended; its failure ends the command.
    var firstOpen = true
    /// Why the first opening failed: the command exits with it.
    var openFailure: (any Error)?

    /// Infinite: the position in the view (see ``order``) of the top post. Paged: its
    /// index in the page.
    var top = 0
    /// A feed index to put on top when the next view arrives (after `g`, a search, a refresh).
    var pendingFeedIndex: Int?
    /// A post to keep on top when the next view arrives (a page replaced by a fresher copy);
    /// when it is gone, the top stays at the same position.
    var pendingPostID: PostID?
    /// What is on screen, as the last view job read it.
    var shown = BrowseView()
    /// Infinite with `s` or `u`: the feed indices shown, in order; `nil` shows the feed.
    var order: [Int]?
    /// ``order`` must be made again (posts loaded, `s` or `u` toggled).
    var orderDirty = false
    var byPopularity = false
    var unseenOnly = false
    /// Posts shown in earlier runs (what `u` hides), read at the first infinite opening.
    var earlierSeen: PostIDSet?
    /// Posts on screen at some point of this run (`u` keeps them).
    var shownThisRun: Set<PostID> = []
    /// Each loaded post's popularity, read once, for `s`.
    var popularity: [PostID: Double] = [:]

    var status = ""
    /// The last message in full, for `l`.
    var lastMessage = ""
    /// What `l` shows: the status line as it was when `l` was pressed, else the last message.
    var messageShown = ""
    /// Esc stopped a `g` load: the next view says how many posts are loaded.
    var saysStoppedLoading = false
    var catalog = CatalogProgress()
    var overlay: Overlay?
    /// The last search, which `n` and `N` step through until Esc clears it.
    var searchQuery: String?
    /// A page being loaded in paged mode, so `n n` goes two pages on.
    var pageTarget: Int?
    /// Pages the view may load on its own before the next key (a tall screen, hidden posts).
    var loadBudget = BrowseScreen.pagesToFillAScreen

    var running: [BrowseJob: (id: Int, task: Task<Void, Never>)] = [:]
    /// What each running job is loading, for the indicator.
    var activities: [BrowseJob: String] = [:]
    private var jobCounter = 0
    /// Piped keys waiting for the loads of the one before.
    private var pendingKeys: [RawTerminal.Key] = []
    /// Keys typed ahead on a terminal, waiting for what the first one needs (the mode
    /// open, a jump read, the next page); see ``take(_:)``.
    var heldKeys: [RawTerminal.Key] = []
    /// The last load of the next page failed: keys past the loaded end stop waiting for it.
    var nextPageFailed = false
    /// A piped key was handled since the last frame.
    private var frameOwed = true
    var ticker: Task<Void, Never>?
    /// The last start of the background catalog walk, awaited before pausing it (so a start
    /// still on its way cannot begin the walk after the pause).
    var catalogStarter: Task<Void, Never>?

    /// How previews are drawn (`--images`, resolved before raw mode); `.none` draws nothing.
    var previewStyle = PreviewStyle.none
    /// The open post's preview, drawn above its text once its job ended.
    var detailPreview: ImagePreview?
    /// The post the detail view shows (`o`): drawn again when its page is replaced.
    var detailPost: Post?
    /// What the detail view says before how to close it (the post is gone upstream).
    var detailNote: String?
    /// Lines the detail view is scrolled by (a post taller than the window).
    var detailScroll = 0
    /// Lines the help (`?`) or the whole last message (`l`) is scrolled by (a window
    /// shorter than the text).
    var textScroll = 0
    /// The status line said once that `--offline` leaves expired cached posts unchecked.
    var offlineNoted = false
    /// List thumbnails on (`i`); on at the start for kitty, iTerm2 and sixel.
    var thumbnailsOn = false
    /// Thumbnails drawn or loaded this run, by post ID.
    var thumbnails: [PostID: ImagePreview] = [:]
    /// Posts whose thumbnail could not be drawn (not asked again this run).
    var thumbnailFailures: Set<PostID> = []

    /// The most pages the view loads on its own to fill a screen.
    static let pagesToFillAScreen = 5

    enum Overlay: Equatable {
        /// A post in full; any key goes back. `above` comes before the text (room for
        /// what another part of the tool shows of the post, e.g. its image).
        case detail(postID: PostID, text: [String], above: [String])
        /// The "go to" prompt with what has been typed so far.
        case goTo(typed: String)
        /// The `/` search prompt with what has been typed so far.
        case search(typed: String)
        /// Every key; j/k/space/b scroll it when the window is too short, any other key closes it.
        case help
        /// The last message in full; any key closes it.
        case message
    }

    /// The background catalog load, as the status line shows it.
    struct CatalogProgress {
        /// Started (after the first scroll); reset by a refresh. Stays set while paged mode
        /// pauses the walk, so infinite mode resumes it.
        var started = false
        /// The walk reached the end of the list.
        var finished = false
        /// What the status line says of it; empty when nothing.
        var line = ""

        /// Started and not at the end yet (paused in paged mode included).
        var isLoading: Bool { started && !finished }
    }

    /// - Parameter visibleCount: posts on one screen; `nil` to fit the terminal.
    init(client: FeedClient, terminal: RawTerminal, events: AsyncStream<BrowseEvent>.Continuation, visibleCount: Int?, colour: Bool) {
        self.client = client
        self.terminal = terminal
        self.events = events
        self.piped = !terminal.isInteractive
        self.colour = colour
        self.fixedCount = visibleCount != nil
        self.visibleCount = max(1, visibleCount ?? terminal.size.map { BrowseLayout.postsThatFit(rows: $0.rows) } ?? 5)
    }

    // MARK: The loop's steps

    /// Applies one event; returns `false` to quit.
    func handle(_ event: BrowseEvent) async -> Bool {
        switch event {
        case .key(let key):
            if piped {
                pendingKeys.append(key)
            } else if !(await take(key)) {
                return false
            }
        case .resize:
            resize()
        case .suspend:
            terminal.suspendProcess()
        case .continued:
            terminal.resumeAfterStop()
            // The window may have changed meanwhile.
            resize()
        case .terminate:
            return false
        case .finished(let job, let id, let apply):
            guard running[job]?.id == id else { break }
            running[job] = nil
            activities[job] = nil
            apply(self)
            if openFailure != nil { return false }
        case .progress(let job, let id, let text):
            guard running[job]?.id == id else { break }
            activities[job] = text
            // The header counts what `g` has loaded so far, as the indicator does.
            if job == .goTo, !piped { refreshView() }
            // Piped, frames wait for the loads: the progress is a line of its own.
            if piped { terminal.write(text + "\n") }
        case .tick:
            pollCatalog()
        }
        guard piped else {
            // Keys typed ahead whose loads have ended, in order.
            guard await pressHeldKeys() else { return false }
            render()
            return true
        }
        return await pressPendingKeys()
    }

    /// Piped keys: while nothing loads, draws the frame the last key made, then handles
    /// the next key.
    private func pressPendingKeys() async -> Bool {
        while running.isEmpty {
            if frameOwed {
                render()
                frameOwed = false
            }
            guard !pendingKeys.isEmpty else { return true }
            let key = pendingKeys.removeFirst()
            guard await press(key) else { return false }
            frameOwed = true
        }
        return true
    }

    /// Stops every job and the ticker (on the way out).
    func stop() {
        for (_, job) in running { job.task.cancel() }
        running = [:]
        activities = [:]
        ticker?.cancel()
        ticker = nil
    }

    // MARK: Jobs

    /// Starts `work` as job `job`, replacing (cancelling) one of its kind; `activity` is
    /// the loading indicator until it ends. `work` gets a function to report progress and
    /// returns what to change on the loop.
    func start(
        _ job: BrowseJob, activity: String? = nil,
        _ work: @escaping @Sendable (_ report: @escaping @Sendable (String) -> Void) async -> @Sendable (BrowseScreen) -> Void
    ) {
        running[job]?.task.cancel()
        jobCounter += 1
        let id = jobCounter
        let events = events
        activities[job] = activity
        let task = Task {
            let apply = await work { events.yield(.progress(job, id: id, $0)) }
            events.yield(.finished(job, id: id, apply: apply))
        }
        running[job] = (id, task)
    }

    /// Cancels job `job`, if running; its result is dropped. Returns whether it ran.
    @discardableResult
    func cancel(_ job: BrowseJob) -> Bool {
        guard let running = running.removeValue(forKey: job) else { return false }
        running.task.cancel()
        activities[job] = nil
        return true
    }

    /// Whether `error` only says the work was cancelled (nothing to tell the reader).
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? RepositoryError { return error.code == .cancelled }
        return false
    }

    /// The status line's whole text: the last message and the catalog's progress.
    var statusText: String {
        [status, catalog.line].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// Shows `text` on the status line and keeps it whole for `l`.
    func say(_ text: String) {
        let text = text.terminalLine
        status = text
        if !text.isEmpty { lastMessage = text }
    }

    // MARK: Saving

    /// The feed index of the post on top (infinite mode).
    var topFeedIndex: Int {
        guard let order else { return top }
        return order.indices.contains(top) ? order[top] : (order.last ?? 0)
    }

    /// Saves the place (nothing when the mode never opened); returns one line each when
    /// another process's place was replaced.
    @discardableResult
    func save() async throws -> [String] {
        guard opened else { return [] }
        switch mode {
        case .infinite: return try await client.saveInfinite(anchorIndex: topFeedIndex, shownPostIDs: PostIDSet(shownThisRun))
        case .paged: return try await client.savePaged(anchorIndexInPage: top)
        }
    }

    /// The terminal changed size: as many posts as now fit (unless `--rows` fixed them).
    func resize() {
        // The detail view re-wraps its text on the next frame; its image is drawn again
        // for the new size.
        if case .detail(let postID, let text, _) = overlay, let post = detailPost, previewStyle.imageProtocol != .none {
            overlay = .detail(postID: postID, text: text, above: [])
            loadDetailPreview(of: post)
        }
        guard !fixedCount, let size = terminal.size else { return }
        visibleCount = BrowseLayout.postsThatFit(rows: size.rows)
        if opened { refreshView() }
    }
}
