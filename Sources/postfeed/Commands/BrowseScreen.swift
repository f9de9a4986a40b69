import Foundation
import PostFeed

/// What `browse` shows and how keys move it. The feeds do the work; this keeps only the
/// view's position (the post at the top) and draws.
///
/// Every key arrives through `handle(_:)`, also while the detail view or the "go to" prompt
/// is open: a second reader on stdin would race the key thread for bytes and leave the
/// command deaf to keys and signals.
struct BrowseScreen {
    let client: FeedClient
    let terminal: RawTerminal
    /// Posts on one screen: `--rows`, else what fits the terminal (changes on resize).
    private(set) var visibleCount: Int
    /// Whether `--rows` fixed `visibleCount`, so a resize only re-lays out.
    private let fixedCount: Bool
    private(set) var mode: ListMode = .infinite
    /// Infinite: the global index of the top post. Paged: the index in the page.
    private var top = 0
    private var visible: [Post] = []
    private var status = ""
    /// What covers the list, taking the keys, until it is closed.
    private var overlay: Overlay?
    /// The last search, which `n` and `N` step through until Esc clears it.
    private var searchQuery: String?

    private enum Overlay {
        /// A post in full; any key goes back.
        case detail(String)
        /// The "go to" prompt with what has been typed so far.
        case goTo(typed: String)
        /// The `/` search prompt with what has been typed so far.
        case search(typed: String)
        /// Every key; any key closes it.
        case help
    }

    /// - Parameter visibleCount: posts on one screen; `nil` to fit the terminal.
    init(client: FeedClient, terminal: RawTerminal, visibleCount: Int?) {
        self.client = client
        self.terminal = terminal
        self.fixedCount = visibleCount != nil
        self.visibleCount = max(1, visibleCount ?? terminal.size.map { BrowseLayout.postsThatFit(rows: $0.rows) } ?? 5)
    }

    /// The terminal changed size: as many posts as now fit (unless `--rows` fixed them).
    mutating func resize() async {
        guard !fixedCount, let size = terminal.size else { return }
        visibleCount = BrowseLayout.postsThatFit(rows: size.rows)
        do { try await refreshVisible() } catch { status = "\(error)" }
    }

    // MARK: Opening and saving

    mutating func open(mode: ListMode) async throws {
        self.mode = mode
        switch mode {
        case .infinite:
            let report = try await client.resumeInfinite()
            status = report.notices.joined(separator: "; ")
            if await client.infinite.count == 0 { try await client.infinite.loadMore() }
            top = report.anchorIndex
        case .paged:
            let report = try await client.resumePaged()
            status = report.notices.joined(separator: "; ")
            top = report.anchorIndex
        }
        try await refreshVisible()
    }

    /// Saves the place; returns one line each when another process's place was replaced.
    @discardableResult
    func save() async throws -> [String] {
        switch mode {
        case .infinite: try await client.saveInfinite(anchorIndex: top)
        case .paged: try await client.savePaged(anchorIndexInPage: top)
        }
    }

    // MARK: Keys

    /// Applies a key; returns `false` to quit.
    mutating func handle(_ key: RawTerminal.Key) async -> Bool {
        if key == .endOfInput || key == .interrupt { return false }
        switch overlay {
        case .detail, .help:
            overlay = nil
            return true
        case .goTo(let typed):
            await type(key, into: typed)
            return true
        case .search(let typed):
            await typeSearch(key, into: typed)
            return true
        case nil:
            break
        }
        status = ""
        do {
            switch key {
            case .character("q"): return false
            case .character("j"), .down: try await move(by: 1)
            case .character("k"), .up: try await move(by: -1)
            case .character(" "), .pageDown: try await move(by: visibleCount)
            case .character("b"), .pageUp: try await move(by: -visibleCount)
            case .character("n") where searchQuery != nil: try await findNext(step: 1)
            case .character("N"): try await findNext(step: -1)
            case .character("n"): try await page(by: 1)
            case .character("p"): try await page(by: -1)
            case .character("g"): overlay = .goTo(typed: "")
            case .character("m"): try await toggleMode()
            case .character("r"): try await refresh()
            case .character("o"), .enter: await openDetail()
            case .character("?"): overlay = .help
            case .character("/"): overlay = .search(typed: "")
            case .escape where searchQuery != nil:
                searchQuery = nil
                status = "search cleared"
            default: return true
            }
            try await refreshVisible()
        } catch {
            status = "\(error)"
        }
        return true
    }

    private mutating func move(by delta: Int) async throws {
        switch mode {
        case .infinite:
            let feed = client.infinite
            // A typed post number may be anything up to Int.max: saturate, never trap.
            let target = max(0, PlaceConverter.saturatingAdd(top, delta))
            try await feed.loadMoreIfNeeded(visibleIndex: PlaceConverter.saturatingAdd(target, visibleCount - 1))
            let count = await feed.count
            top = min(target, max(0, count - 1))
            if top + visibleCount >= count, !(await feed.hasMore) { status = "end of the feed (\(count) posts)" }
        case .paged:
            let count = await client.paged.posts.count
            let target = PlaceConverter.saturatingAdd(top, delta)
            if target >= count {
                try await page(by: 1)
            } else if target < 0 {
                try await page(by: -1)
            } else {
                top = target
            }
        }
    }

    private mutating func page(by delta: Int) async throws {
        switch mode {
        case .infinite:
            try await move(by: delta * client.configuration.pageSize)
        case .paged:
            let feed = client.paged
            if delta > 0 {
                guard await feed.hasNext else { status = "this is the last page"; return }
                try await feed.next()
            } else {
                guard await feed.hasPrevious else { status = "this is the first page"; return }
                try await feed.previous()
            }
            top = 0
        }
    }

    /// A key typed at the "go to" prompt: Enter goes, Escape cancels, Backspace erases.
    private mutating func type(_ key: RawTerminal.Key, into typed: String) async {
        switch key {
        case .enter:
            overlay = nil
            do {
                try await goTo(typed)
                try await refreshVisible()
            } catch {
                status = "\(error)"
            }
        case .escape:
            overlay = nil
        default:
            if let edited = Self.edit(typed, with: key) { overlay = .goTo(typed: edited) }
        }
    }

    /// A prompt's text after `key`: Backspace erases the last character, a character is
    /// added; `nil` for any other key.
    private static func edit(_ typed: String, with key: RawTerminal.Key) -> String? {
        switch key {
        case .character(let c) where c == "\u{7F}" || c == "\u{08}": String(typed.dropLast())
        case .character(let c): typed + String(c)
        default: nil
        }
    }

    /// A key typed at the search prompt: Enter searches, Escape cancels, Backspace erases.
    private mutating func typeSearch(_ key: RawTerminal.Key, into typed: String) async {
        switch key {
        case .enter:
            overlay = nil
            guard !typed.isEmpty else { return }
            searchQuery = typed
            do {
                try await findNext(step: 0)
                try await refreshVisible()
            } catch {
                status = "\(error)"
            }
        case .escape:
            overlay = nil
        default:
            if let edited = Self.edit(typed, with: key) { overlay = .search(typed: edited) }
        }
    }

    /// Moves to a post matching the search among the loaded ones (all loaded posts in
    /// infinite mode, the page in paged mode): `step` 0 the current post or the next
    /// match, 1 the next after it, -1 the one before; wrapping around.
    private mutating func findNext(step: Int) async throws {
        guard let query = searchQuery else {
            status = "no search yet: / searches"
            return
        }
        let posts: [Post]
        switch mode {
        case .infinite:
            let count = await client.infinite.count
            posts = try await client.infinite.posts(in: 0..<count)
        case .paged:
            posts = await client.paged.posts
        }
        let matches = BrowseSearch.matches(of: query, in: posts)
        guard !matches.isEmpty else {
            status = "no match for “\(query)” in the \(posts.count) loaded posts"
            return
        }
        let target: Int
        switch step {
        case 0: target = matches.first { $0 >= top } ?? matches[0]
        case 1...: target = matches.first { $0 > top } ?? matches[0]
        default: target = matches.last { $0 < top } ?? matches[matches.count - 1]
        }
        switch mode {
        case .infinite: try await move(by: target - top)
        case .paged: top = target
        }
        let number = (matches.firstIndex(of: target) ?? 0) + 1
        status = "match \(number) of \(matches.count) for “\(query)”"
    }

    private var goToPrompt: String { mode == .paged ? "go to page: " : "go to post #: " }

    private mutating func goTo(_ typed: String) async throws {
        guard let number = Int(typed.trimmingCharacters(in: .whitespaces)) else {
            status = "'\(typed)' is not a number"
            return
        }
        switch mode {
        case .paged:
            try await client.paged.goTo(page: number)
            top = 0
        case .infinite:
            guard number >= 1 else { status = "posts are numbered from 1"; return }
            // Load until post N is there, or the feed ends: one page at a time, with the
            // count on the status line.
            let feed = client.infinite
            while await feed.count < number, await feed.hasMore, !Task.isCancelled {
                status = "loading up to post #\(number): \(await feed.count) posts loaded…"
                await render()
                guard try await feed.loadMore() > 0 else { break }
            }
            let count = await feed.count
            guard count >= number else {
                top = max(0, count - visibleCount)
                status = count == 0 ? "the feed is empty" : "the feed ends at post #\(count); there is no post #\(number)"
                return
            }
            status = ""
            top = number - 1
        }
    }

    private mutating func toggleMode() async throws {
        try await save()
        let target: ListMode = mode == .infinite ? .paged : .infinite
        let report = try client.switchMode(to: target)
        try await open(mode: target)
        status = "\(target) mode" + (report.page.map { ", page \($0)" } ?? "") + (report.anchor.map { ", post #\($0.position) in view" } ?? "")
    }

    private mutating func refresh() async throws {
        switch mode {
        case .infinite:
            try await client.infinite.refresh()
            top = 0
        case .paged:
            try await client.paged.refresh()
        }
        status = "refreshed"
    }

    private mutating func openDetail() async {
        guard let post = visible.first else { return }
        let image = await client.image(for: post).map(ImageSummary.init)
        overlay = .detail(PostRenderer.detail(post, image: image))
    }

    /// The most pages one re-layout loads to fill the screen.
    static let pagesToFillAScreen = 5

    private mutating func refreshVisible() async throws {
        switch mode {
        case .infinite:
            // A taller window (or a short first page) must not leave rows blank while the
            // feed has more: load until the screen is full, a few pages at most.
            let feed = client.infinite
            let needed = PlaceConverter.saturatingAdd(top, visibleCount)
            for _ in 0..<Self.pagesToFillAScreen {
                guard await feed.count < needed, await feed.hasMore else { break }
                guard try await feed.loadMore() > 0 else { break }
            }
            visible = try await feed.posts(in: top..<needed)
        case .paged:
            let posts = await client.paged.posts
            top = min(top, max(0, posts.count - 1))
            visible = Array(posts.dropFirst(top).prefix(visibleCount))
        }
    }

    // MARK: Drawing

    func render() async {
        let size = terminal.size
        switch overlay {
        case .detail(let text):
            draw(text: text.components(separatedBy: "\n"), closing: "(any key to go back)", size: size)
            return
        case .help:
            draw(text: Self.helpLines, closing: "(any key closes the help)", size: size)
            return
        default:
            break
        }
        let frame = await frame(highlighting: size != nil)
        if let size {
            terminal.drawFrame(BrowseLayout.lines(frame, rows: size.rows, columns: size.columns))
        } else {
            terminal.clearScreen()
            terminal.write(BrowseLayout.pipedLines(frame).joined(separator: "\n") + "\n")
        }
    }

    private func draw(text: [String], closing: String, size: (rows: Int, columns: Int)?) {
        if let size {
            terminal.drawFrame(BrowseLayout.overlayLines(text, closing: closing, rows: size.rows, columns: size.columns))
        } else {
            terminal.clearScreen()
            terminal.write((text + ["", closing]).joined(separator: "\n") + "\n")
        }
    }

    /// Every key, for the `?` overlay.
    static let helpLines = [
        "PostFeed · keys",
        "",
        "  j / ↓      next post",
        "  k / ↑      previous post",
        "  space / b  next / previous screen (also Page Down / Page Up)",
        "  n / p      next / previous page (paged mode; n is next match while searching)",
        "  g          go to page (paged) or post number (infinite); ⏎ goes, Esc cancels",
        "  /          search the loaded posts (title, author, body); ⏎ searches, Esc cancels",
        "  n / N      next / previous match; Esc clears the search",
        "  m          toggle infinite / paged, keeping your place",
        "  o / ⏎      open the current post (any key goes back)",
        "  r          refresh from the network",
        "  ?          this help",
        "  q          save your place and quit (also Ctrl-C, SIGTERM, SIGHUP)",
    ]

    private func frame(highlighting: Bool) async -> BrowseFrame {
        let header: String
        let firstPosition: Int
        switch mode {
        case .infinite:
            let feed = client.infinite
            let count = await feed.count
            let total = await feed.totalCount
            firstPosition = top + 1
            header = "PostFeed · infinite · posts \(firstPosition)–\(top + visible.count) of \(count) loaded\(total.map { " (\($0) in all)" } ?? "")"
        case .paged:
            let feed = client.paged
            let page = await feed.currentPage
            let pages = await feed.totalPages
            firstPosition = PlaceConverter.position(page: page, indexInPage: top, pageSize: client.configuration.pageSize)
            header = "PostFeed · paged · page \(page)\(pages.map { " of \($0)" } ?? "")"
        }
        let entries = visible.enumerated().map { offset, post in
            PostRenderer.listEntry(PostLine(position: PlaceConverter.saturatingAdd(firstPosition, offset), post: post, image: nil))
                .components(separatedBy: "\n")
        }
        let hints = mode == .infinite
            ? "j/k scroll · space/b screen · g go to · / search · m paged · o open · r refresh · ? help · q quit"
            : "j/k scroll · n/p page · g go to page · / search · m infinite · o open · r refresh · ? help · q quit"
        let prompt: String?
        switch overlay {
        case .goTo(let typed): prompt = goToPrompt + typed
        case .search(let typed): prompt = "/" + typed
        default: prompt = nil
        }
        return BrowseFrame(
            header: header, entries: entries, highlighted: highlighting && !entries.isEmpty ? 0 : nil,
            hints: hints, status: status, prompt: prompt)
    }
}
