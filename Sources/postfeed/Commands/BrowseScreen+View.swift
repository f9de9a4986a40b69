import Foundation
import PostFeed
import PostFeedPreview

/// What is on screen, as a view job read it from the feeds.
struct BrowseView: Sendable {
    /// The view position of the first post (what the header counts from; ``BrowseScreen/top``
    /// may be ahead of it while the view is read again).
    var top = 0
    /// The posts from the top, at most a screen.
    var posts: [Post] = []
    /// Their 1-based positions in the backend's list.
    var numbers: [Int] = []
    /// Infinite: posts loaded. Paged: posts on the page.
    var loaded = 0
    /// Infinite: posts the view has (``loaded`` less those `u` hides).
    var viewCount = 0
    /// Posts in the whole list, when the backend said.
    var total: Int?
    /// Infinite: more pages follow. Paged: a next page follows.
    var hasMore = false
    /// Paged: the page shown and the number of pages, when known.
    var page = 0
    var totalPages: Int?
}

/// What a view job is asked to read.
private struct ViewRequest: Sendable {
    var mode: ListMode
    var top: Int
    var focus: Int?
    /// A post to keep on top, when the feed still has it (after a page was replaced).
    var focusPostID: PostID?
    var visibleCount: Int
    var order: [Int]?
    var rebuild: Rebuild?
    var pageSize: Int

    /// How to make the order again.
    struct Rebuild: Sendable {
        var byPopularity: Bool
        var unseenOnly: Bool
        var hidden: PostIDSet
        var kept: Set<PostID>
        var popularity: [PostID: Double]
    }
}

/// What a view job read.
private struct ViewResult: Sendable {
    var top: Int
    var view: BrowseView
    /// The order made again, when asked (`nil` inside: the feed as it is).
    var rebuilt: [Int]??
    var popularity: [PostID: Double]?
    /// Pages shown from the cache past their expiry, waiting to be checked with the server.
    var expiredPages = 0
    /// Why posts shown came from the cache out of date (`offline` with `--offline`).
    var staleReason: String?
}

extension BrowseScreen {
    /// Reads what the screen shows from the feeds, off the loop (pages scrolled out of the
    /// window come back from the page cache); then loads more when the screen nears the
    /// end of what is loaded.
    func refreshView() {
        let request = ViewRequest(
            mode: mode, top: top, focus: pendingFeedIndex, focusPostID: pendingPostID, visibleCount: visibleCount, order: order,
            rebuild: orderDirty
                ? .init(byPopularity: byPopularity, unseenOnly: unseenOnly, hidden: earlierSeen ?? PostIDSet(),
                        kept: shownThisRun, popularity: popularity)
                : nil,
            pageSize: client.configuration.pageSize)
        let client = client
        start(.view) { _ in
            do {
                let result = try await Self.read(request, client: client)
                return { $0.showView(result, rebuilt: request.rebuild != nil) }
            } catch {
                return { screen in if !Self.isCancellation(error) { screen.say("\(error)") } }
            }
        }
    }

    private func showView(_ result: ViewResult, rebuilt: Bool) {
        if let order = result.rebuilt {
            self.order = order
            orderDirty = false
        }
        if let popularity = result.popularity { self.popularity = popularity }
        pendingFeedIndex = nil
        pendingPostID = nil
        top = result.top
        shown = result.view
        if saysStoppedLoading {
            saysStoppedLoading = false
            say("stopped loading: \(result.view.loaded) posts loaded")
        }
        shownThisRun.formUnion(result.view.posts.map(\.id))
        // The place is what was shown in the backend's order: the popularity order marks
        // its posts seen but moves no place.
        if mode == .infinite, !byPopularity, let last = result.view.numbers.max() {
            client.markShown(throughPosition: last - 1)
        }
        loadMoreIfNeeded()
        loadThumbnails()
        if result.expiredPages > 0 { startRevalidation() }
        if result.staleReason != nil { noteOfflineOnce() }
    }

    /// With `--offline` nothing is checked with the server: once expired cached posts are
    /// shown, says so once.
    private func noteOfflineOnce() {
        guard client.configuration.offline, !offlineNoted else { return }
        offlineNoted = true
        say("cached posts may be out of date: offline (--offline), so they are not checked with the server")
    }

    private static func read(_ request: ViewRequest, client: FeedClient) async throws -> ViewResult {
        switch request.mode {
        case .paged:
            let feed = client.paged
            let posts = await feed.posts
            let page = await feed.currentPage
            let kept = request.focusPostID.flatMap { id in posts.firstIndex { $0.id == id } }
            let top = min(max(0, kept ?? request.top), max(0, posts.count - 1))
            let visible = Array(posts.dropFirst(top).prefix(request.visibleCount))
            // A walked page (a feed's) is numbered from what the pages before it held.
            let first = await client.firstPosition(ofPage: page)
            let numbers = visible.indices.map { PlaceConverter.saturatingAdd(first, top + $0) }
            let view = BrowseView(
                top: top, posts: visible, numbers: numbers, loaded: posts.count, viewCount: posts.count,
                total: await feed.totalCount, hasMore: await feed.hasNext, page: page, totalPages: await feed.totalPages)
            return ViewResult(
                top: top, view: view, rebuilt: nil, popularity: nil, expiredPages: await feed.expiredPageCount,
                staleReason: await feed.staleReason)
        case .infinite:
            var result = try await readInfinite(request, feed: client.infinite)
            result.expiredPages = await client.infinite.expiredPageCount
            result.staleReason = await client.infinite.staleReason
            return result
        }
    }

    private static func readInfinite(_ request: ViewRequest, feed: InfiniteFeed) async throws -> ViewResult {
        var order = request.order
        var focus = request.focus
        if focus == nil, let id = request.focusPostID { focus = await feed.index(ofPostID: id) }
        var rebuilt: [Int]??
        var popularity: [PostID: Double]?
        if let rebuild = request.rebuild {
            let ids = await feed.loadedPostIDs
            // The post on top stays on top when the order changes.
            if focus == nil { focus = order.map { $0.indices.contains(request.top) ? $0[request.top] : nil } ?? request.top }
            var known = rebuild.popularity
            if rebuild.byPopularity { try await readPopularity(of: ids, into: &known, feed: feed) }
            order = BrowseOrder.make(
                ids: ids, popularity: known, byPopularity: rebuild.byPopularity, unseenOnly: rebuild.unseenOnly,
                hidden: rebuild.hidden, kept: rebuild.kept)
            rebuilt = .some(order)
            popularity = known
        }
        let loaded = await feed.count
        let viewCount = order?.count ?? loaded
        var top = focus.map { BrowseOrder.position(ofFeedIndex: $0, in: order) } ?? request.top
        top = min(max(0, top), max(0, viewCount - 1))
        let end = min(viewCount, PlaceConverter.saturatingAdd(top, request.visibleCount))
        var posts: [Post] = []
        var numbers: [Int] = []
        if let order {
            for position in top..<max(top, end) {
                let index = order[position]
                let post = try await feed.posts(in: index..<index + 1)
                guard let first = post.first, let number = await feed.listPositions(in: index..<index + 1).first else { continue }
                posts.append(first)
                numbers.append(number + 1)
            }
        } else {
            posts = try await feed.posts(in: top..<max(top, end))
            numbers = await feed.listPositions(in: top..<top + posts.count).map { $0 + 1 }
        }
        // Images follow the reader, not the background catalog load: this screen's and the
        // next one's are prefetched at low priority (cached ones cost nothing).
        let ahead = min(viewCount, PlaceConverter.saturatingAdd(end, request.visibleCount))
        if let order {
            await feed.prefetchImages(at: order[top..<max(top, ahead)])
        } else {
            await feed.prefetchImages(from: top, count: max(0, ahead - top))
        }
        let view = BrowseView(
            top: top, posts: posts, numbers: numbers, loaded: loaded, viewCount: viewCount, total: await feed.totalCount,
            hasMore: await feed.hasMore)
        return ViewResult(top: top, view: view, rebuilt: rebuilt, popularity: popularity)
    }

    /// Adds the popularity of the loaded posts not yet in `known`, reading them a few
    /// pages at a time (pages out of the window come back from the page cache).
    private static func readPopularity(of ids: [PostID], into known: inout [PostID: Double], feed: InfiniteFeed) async throws {
        var start = 0
        while start < ids.count {
            let end = min(ids.count, start + 200)
            if ids[start..<end].contains(where: { known[$0] == nil }) {
                for post in try await feed.posts(in: start..<end) { known[post.id] = PopularityRanking.rankValue(post.popularity) }
            }
            start = end
        }
    }

    // MARK: Drawing

    /// Draws the state: the overlay when one is open, else the list.
    func render() {
        let size = terminal.size
        switch overlay {
        case .detail(_, let text, let above):
            terminal.write(clearsImages)
            guard let size else {
                // Piped: at COLUMNS, as `show` wraps (80 without it).
                let wrapped = text.flatMap { BrowseLayout.wrap($0, toColumns: Terminal.width) }
                drawPiped(text: above + wrapped, closing: detailNote.map { "\($0) (any key to go back)" } ?? "(any key to go back)")
                return
            }
            let page = detailPage(above: above, text: text, size: size)
            terminal.drawFrame(page.lines)
            if page.showsImage, let detailPreview { terminal.write(Self.placed(detailPreview, row: 1, column: 1)) }
        case .help, .message:
            guard let size, let page = textPage(size: size) else {
                let closing = overlay == .help ? "(any key closes the help)" : "(any key closes this)"
                drawPiped(text: overlay == .help ? BrowseHelp.lines : [messageText], closing: closing)
                return
            }
            terminal.drawFrame(page.lines)
        default:
            let frame = frame()
            if let size {
                terminal.write(clearsImages)
                terminal.drawFrame(BrowseLayout.lines(frame, rows: size.rows, columns: size.columns))
                drawThumbnails(entries: frame.entries, rows: size.rows)
            } else {
                terminal.clearScreen()
                terminal.write(BrowseLayout.pipedLines(frame).joined(separator: "\n") + "\n")
            }
        }
    }

    /// The detail view for `size` at the current scroll position.
    func detailPage(above: [String], text: [String], size: (rows: Int, columns: Int)) -> BrowseDetailLayout.Page {
        BrowseDetailLayout.page(
            above: above, text: text, note: detailNote, scroll: detailScroll, rows: size.rows, columns: size.columns)
    }

    /// The help or the whole last message (`l`) for `size` at its scroll position: laid out
    /// and scrolled as the detail view is. `nil` when neither is open.
    func textPage(size: (rows: Int, columns: Int)) -> BrowseDetailLayout.Page? {
        switch overlay {
        case .help:
            return BrowseHelp.page(scroll: textScroll, rows: size.rows, columns: size.columns)
        case .message:
            return BrowseDetailLayout.page(
                above: [], text: [messageText], note: nil, scroll: textScroll, rows: size.rows, columns: size.columns,
                leave: "closes this")
        default:
            return nil
        }
    }

    /// What `l` shows.
    private var messageText: String { messageShown.isEmpty ? "No message yet." : messageShown }

    /// An overlay into a pipe (no window size): the text, then how to close it.
    private func drawPiped(text: [String], closing: String) {
        terminal.clearScreen()
        terminal.write((text + ["", closing]).joined(separator: "\n") + "\n")
    }

    /// The shown posts' entries, as the list draws them.
    func entries() -> [[String]] {
        let indent = thumbnailsActive
        let width = PostRenderer.titleWidth
        return zip(shown.numbers, shown.posts).map { number, post in
            PostRenderer.listEntry(PostLine(position: number, post: post, image: nil), width: width).components(separatedBy: "\n")
        }.map { lines in
            // Room at the left for the thumbnails (drawn after the frame).
            indent ? lines.map { String(repeating: " ", count: Self.thumbnailIndent) + $0 } : lines
        }
    }

    /// Posts the list draws on the window (``BrowseLayout/entriesThatFit(_:rows:)``), fewer
    /// than read with `--rows` larger than the window; all read when piped.
    func postsDrawn(_ entries: [[String]]) -> Int {
        terminal.size.map { BrowseLayout.entriesThatFit(entries, rows: $0.rows) } ?? entries.count
    }

    /// The list as it stands: a function of the state alone.
    func frame() -> BrowseFrame {
        let entries = entries()
        let prompt: String? = switch overlay {
        case .goTo(let typed): (mode == .paged ? "go to page: " : "go to post #: ") + typed
        case .search(let typed): "/" + typed
        default: nil
        }
        let activity = activities.sorted { $0.key < $1.key }.map(\.value).joined(separator: " · ")
        return BrowseFrame(
            header: header(drawn: postsDrawn(entries)), entries: entries, highlighted: !piped && !entries.isEmpty ? 0 : nil,
            hints: BrowseHelp.hints(infinite: mode == .infinite),
            status: statusText, prompt: prompt,
            activity: activity.isEmpty ? nil : activity, colour: colour)
    }

    /// The header, its range the `drawn` posts (never more than the window shows).
    private func header(drawn: Int) -> String {
        guard opened else { return "PostFeed · \(mode)" }
        switch mode {
        case .infinite:
            let range = "\(shown.top + 1)–\(shown.top + min(drawn, shown.posts.count))"
            let total = shown.total.map { " (\($0) in all)" } ?? ""
            guard order != nil else { return "PostFeed · infinite · posts \(range) of \(shown.loaded) loaded\(total)" }
            let tags = [byPopularity ? "most popular first" : nil, unseenOnly ? "unseen only" : nil].compactMap { $0 }
            let counted = shown.viewCount == shown.loaded ? "\(shown.loaded) loaded" : "\(shown.viewCount) shown, \(shown.loaded) loaded"
            return "PostFeed · infinite · \(tags.joined(separator: " · ")) · \(range) of \(counted)\(total)"
        case .paged:
            return "PostFeed · paged · page \(shown.page)\(shown.totalPages.map { " of \($0)" } ?? "")"
        }
    }
}
