import Foundation
import PostFeed

/// What `browse` shows and how keys move it. The feeds do the work; this keeps only the
/// view's position (the post at the top) and draws.
struct BrowseScreen {
    let client: FeedClient
    let terminal: RawTerminal
    let visibleCount: Int
    private(set) var mode: ListMode = .infinite
    /// Infinite: the global index of the top post. Paged: the index in the page.
    private var top = 0
    private var visible: [Post] = []
    private var status = ""

    init(client: FeedClient, terminal: RawTerminal, visibleCount: Int) {
        self.client = client
        self.terminal = terminal
        self.visibleCount = max(1, visibleCount)
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

    func save() async throws {
        switch mode {
        case .infinite: try await client.saveInfinite(anchorIndex: top)
        case .paged: try await client.savePaged(anchorIndexInPage: top)
        }
    }

    // MARK: Keys

    /// Applies a key; returns `false` to quit.
    mutating func handle(_ key: RawTerminal.Key) async -> Bool {
        status = ""
        do {
            switch key {
            case .character("q"), .endOfInput: return false
            case .character("j"), .down: try await move(by: 1)
            case .character("k"), .up: try await move(by: -1)
            case .character(" "), .pageDown: try await move(by: visibleCount)
            case .character("b"), .pageUp: try await move(by: -visibleCount)
            case .character("n"): try await page(by: 1)
            case .character("p"): try await page(by: -1)
            case .character("g"): try await goTo()
            case .character("m"): try await toggleMode()
            case .character("r"): try await refresh()
            case .character("o"), .enter: await openDetail()
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
            let target = max(0, top + delta)
            try await feed.loadMoreIfNeeded(visibleIndex: target + visibleCount - 1)
            let count = await feed.count
            top = min(target, max(0, count - 1))
            if top + visibleCount >= count, !(await feed.hasMore) { status = "end of the feed (\(count) posts)" }
        case .paged:
            let count = await client.paged.posts.count
            let target = top + delta
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

    private mutating func goTo() async throws {
        terminal.write("\n")
        let prompt = mode == .paged ? "go to page: " : "go to post #: "
        guard let number = Int(terminal.readLine(prompt: prompt).trimmingCharacters(in: .whitespaces)) else {
            status = "not a number"
            return
        }
        switch mode {
        case .paged:
            try await client.paged.goTo(page: number)
            top = 0
        case .infinite:
            guard number >= 1 else { status = "posts are numbered from 1"; return }
            try await move(by: number - 1 - top)
        }
    }

    private mutating func toggleMode() async throws {
        try await save()
        let target: ListMode = mode == .infinite ? .paged : .infinite
        let report = try client.switchMode(to: target)
        try await open(mode: target)
        status = "\(target) mode" + (report.page.map { ", page \($0)" } ?? "") + (report.anchor.map { ", post #\($0.index + 1) in view" } ?? "")
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

    private func openDetail() async {
        guard let post = visible.first else { return }
        let image = await client.image(for: post).map(ImageSummary.init)
        terminal.clearScreen()
        terminal.write(PostRenderer.detail(post, image: image).replacingOccurrences(of: "\n", with: "\r\n"))
        terminal.write("\r\n\r\n(any key to go back)")
        _ = terminal.readKey()
    }

    private mutating func refreshVisible() async throws {
        switch mode {
        case .infinite:
            visible = try await client.infinite.posts(in: top..<(top + visibleCount))
        case .paged:
            let posts = await client.paged.posts
            top = min(top, max(0, posts.count - 1))
            visible = Array(posts.dropFirst(top).prefix(visibleCount))
        }
    }

    // MARK: Drawing

    func render() async {
        var lines: [String] = []
        let firstPosition: Int
        switch mode {
        case .infinite:
            let feed = client.infinite
            let count = await feed.count
            let total = await feed.totalCount
            firstPosition = top + 1
            lines.append("PostFeed · infinite · posts \(firstPosition)–\(top + visible.count) of \(count) loaded\(total.map { " (\($0) in all)" } ?? "")")
        case .paged:
            let feed = client.paged
            let page = await feed.currentPage
            let pages = await feed.totalPages
            firstPosition = (page - 1) * client.configuration.pageSize + top + 1
            lines.append("PostFeed · paged · page \(page)\(pages.map { " of \($0)" } ?? "")")
        }
        lines.append(String(repeating: "─", count: min(Terminal.width, 80)))
        for (offset, post) in visible.enumerated() {
            lines.append(PostRenderer.listEntry(PostLine(position: firstPosition + offset, post: post, image: nil)))
        }
        lines.append(String(repeating: "─", count: min(Terminal.width, 80)))
        lines.append(mode == .infinite
            ? "j/k scroll · space/b screen · g go to · m paged · o open · r refresh · q quit"
            : "j/k scroll · n/p page · g go to page · m infinite · o open · r refresh · q quit")
        if !status.isEmpty { lines.append(status) }
        terminal.clearScreen()
        let separator = terminal.isInteractive ? "\r\n" : "\n"
        terminal.write(lines.joined(separator: "\n").replacingOccurrences(of: "\n", with: separator) + separator)
    }
}
