import Foundation
import PostFeed
import PostFeedPreview

/// The jobs `browse` starts: each reads or loads off the loop and returns what to change.
extension BrowseScreen {
    /// Opens `mode` (resuming its saved place; the first page when nothing is loaded).
    /// Cached pages come from the cache, so a warm start is on screen at once.
    func open(announcing announcement: String? = nil) {
        let (client, mode) = (client, mode)
        start(.open, activity: "opening \(mode) mode…") { _ in
            do {
                switch mode {
                case .infinite:
                    let report = try await client.resumeInfinite()
                    if await client.infinite.count == 0 { try await client.infinite.loadMore() }
                    let hidden = await client.infinite.hiddenPostIDs
                    return { $0.opened(at: report, hidden: hidden, announcing: announcement) }
                case .paged:
                    let report = try await client.resumePaged()
                    return { $0.opened(at: report, hidden: nil, announcing: announcement) }
                }
            } catch {
                return { screen in
                    if screen.firstOpen {
                        screen.openFailure = error
                    } else if !Self.isCancellation(error) {
                        screen.say("cannot open \(mode) mode: \(error); m switches back")
                    }
                }
            }
        }
    }

    private func opened(at report: ResumeReport, hidden: PostIDSet?, announcing announcement: String?) {
        opened = true
        firstOpen = false
        // The library reports a state file set aside once per run: browse's start said it
        // already when it is in the announcement.
        say((report.notices + [announcement].compactMap { $0 }).joined(separator: "; "))
        switch mode {
        case .infinite:
            if earlierSeen == nil { earlierSeen = hidden ?? PostIDSet() }
            pendingFeedIndex = report.anchorIndex
            orderDirty = byPopularity || unseenOnly
            // Back from paged mode: the walk goes on from the pages the place holds.
            if catalog.isLoading { resumeCatalogLoad() }
        case .paged:
            top = report.anchorIndex
        }
        refreshView()
    }

    // MARK: Pages

    /// Loads the next page of the infinite feed when the screen nears the end of what is
    /// loaded (or shows less than a screen), unless a load runs already.
    /// With `forKeysTypedAhead`, the next page whatever the screen shows and the budget:
    /// a key typed ahead waits for it (see ``take(_:)``).
    func loadMoreIfNeeded(forKeysTypedAhead: Bool = false) {
        guard mode == .infinite, opened, shown.hasMore, forKeysTypedAhead || loadBudget > 0 else { return }
        guard running[.more] == nil, running[.goTo] == nil, running[.refresh] == nil, running[.open] == nil else { return }
        if !forKeysTypedAhead {
            let lastVisible = PlaceConverter.saturatingAdd(top, visibleCount - 1)
            guard lastVisible >= shown.viewCount - client.infinite.configuration.prefetchThreshold - 1 else { return }
            loadBudget -= 1
        }
        let feed = client.infinite
        start(.more, activity: "loading posts after #\(shown.loaded)…") { _ in
            do {
                try await feed.loadMore()
                return { screen in
                    screen.nextPageFailed = false
                    screen.orderDirty = screen.order != nil
                    screen.refreshView()
                }
            } catch {
                return { screen in
                    guard !Self.isCancellation(error) else { return }
                    screen.loadBudget = 0
                    screen.nextPageFailed = true
                    screen.say("\(error)")
                }
            }
        }
    }

    /// `g N` beyond the loaded posts (infinite): loads until post N is there, or the feed
    /// ends, with the count as the indicator; Esc stops it.
    func loadUntil(post number: Int) {
        let feed = client.infinite
        start(.goTo, activity: "loading up to post #\(number): \(shown.loaded) loaded… Esc stops") { report in
            do {
                while await feed.count < number, await feed.hasMore {
                    report("loading up to post #\(number): \(await feed.count) loaded… Esc stops")
                    guard try await feed.loadMore() > 0 else { break }
                }
            } catch {
                return { screen in
                    if !Self.isCancellation(error) { screen.say("\(error)") }
                    screen.orderDirty = screen.order != nil
                    screen.refreshView()
                }
            }
            let count = await feed.count
            return { screen in
                if count >= number {
                    screen.pendingFeedIndex = number - 1
                } else {
                    screen.pendingFeedIndex = max(0, count - screen.visibleCount)
                    screen.say(count == 0 ? "the feed is empty" : "the feed ends at post #\(count); there is no post #\(number)")
                }
                screen.orderDirty = screen.order != nil
                screen.refreshView()
            }
        }
    }

    /// Paged mode: shows page `number`; `n n` goes two pages on (the last asked wins).
    func goToPage(_ number: Int) {
        pageTarget = number
        let feed = client.paged
        start(.page, activity: "loading page \(number)…") { _ in
            do {
                try await feed.goTo(page: number)
                return { screen in
                    screen.pageTarget = nil
                    screen.top = 0
                    screen.refreshView()
                }
            } catch {
                return { screen in
                    screen.pageTarget = nil
                    if !Self.isCancellation(error) { screen.say("\(error)") }
                }
            }
        }
    }

    /// `r`: back to page 1 from the network, the page cache invalidated. On failure the
    /// posts on screen stay and the status line says why; `r` again retries.
    /// With `--offline` there is no network to refresh from: it says so, and the place and
    /// the posts stay (a "refresh" from the cache went back to post 1 and cut the list).
    func refresh() {
        guard !client.configuration.offline else {
            say("offline (--offline): nothing to refresh from; the posts shown are the cached ones")
            return
        }
        guard running[.refresh] == nil else {
            say("already refreshing…")
            return
        }
        for job in [BrowseJob.more, .goTo, .page, .search, .revalidate] { cancel(job) }
        pageTarget = nil
        let (client, mode) = (client, mode)
        start(.refresh, activity: "refreshing from the network…") { _ in
            do {
                // Back to page 1 (the infinite feed's background catalog load cancelled);
                // the old posts stay until page 1 arrives.
                try await client.feed(for: mode).refresh()
                return { screen in
                    screen.catalog = CatalogProgress()
                    screen.popularity = [:]
                    screen.top = 0
                    screen.pendingFeedIndex = screen.mode == .infinite ? 0 : nil
                    screen.orderDirty = screen.order != nil || screen.byPopularity || screen.unseenOnly
                    screen.say("refreshed from the network")
                    screen.refreshView()
                }
            } catch {
                return { screen in
                    screen.catalog.started = false
                    guard !Self.isCancellation(error) else { return }
                    // The transfer's own reason: the library's "could not be loaded and is not
                    // cached" is wrong here, where the cached posts stay on screen.
                    let reason = (error as? RepositoryError)?.underlying.map { "\($0)" } ?? "\(error)"
                    screen.say("refresh failed: \(reason); the posts shown are from before, r tries again")
                }
            }
        }
    }

    // MARK: The post in full, search

    /// `o`: the top post in full at once; its image's details and preview when they arrive.
    func openDetail() {
        guard let post = shown.posts.first else { return }
        overlay = .detail(postID: post.id, text: [], above: [])
        detailNote = nil
        detailScroll = 0
        loadDetailPreview(of: post)
        showDetailText(of: post)
    }

    /// The detail view's text for `post` (the one open, or its newer copy) at once, its
    /// image's details when they arrive; what is drawn above it stays.
    func showDetailText(of post: Post) {
        guard case .detail(post.id, _, let above) = overlay else { return }
        detailPost = post
        overlay = .detail(postID: post.id, text: Self.detailLines(post, image: nil), above: above)
        cancel(.detail)
        guard post.imageURL != nil else { return }
        let client = client
        start(.detail, activity: "loading the image's details…") { _ in
            let image = await client.image(for: post).map(ImageSummary.init)
            return { screen in
                guard case .detail(post.id, _, let above) = screen.overlay else { return }
                screen.overlay = .detail(postID: post.id, text: Self.detailLines(post, image: image), above: above)
            }
        }
    }

    private static func detailLines(_ post: Post, image: ImageSummary?) -> [String] {
        BrowseDetailLayout.lines(of: post, image: image)
    }

    /// Moves to a post matching the search among the loaded ones (those the view shows in
    /// infinite mode, the page in paged mode): `step` 0 the current post or the next
    /// match, 1 the next after it, -1 the one before; wrapping around.
    func find(step: Int) {
        guard let query = searchQuery else {
            say("no search yet: / searches")
            return
        }
        let (client, mode) = (client, mode)
        start(.search, activity: "searching…") { _ in
            do {
                var matches: [Int] = []
                var searched = 0
                switch mode {
                case .infinite:
                    // A few pages at a time, so a long feed with a window of pages never
                    // holds all its posts at once.
                    let count = await client.infinite.count
                    var start = 0
                    while start < count {
                        let end = min(count, start + 200)
                        let posts = try await client.infinite.posts(in: start..<end)
                        matches += BrowseSearch.matches(of: query, in: posts).map { $0 + start }
                        searched += posts.count
                        start = end
                    }
                case .paged:
                    let posts = await client.paged.posts
                    matches = BrowseSearch.matches(of: query, in: posts)
                    searched = posts.count
                }
                return { [matches, searched] screen in screen.found(matches, searched: searched, query: query, step: step) }
            } catch {
                return { screen in if !Self.isCancellation(error) { screen.say("\(error)") } }
            }
        }
    }

    /// Moves to the match `step` says; `matches` are feed indices (page indices when paged).
    private func found(_ feedMatches: [Int], searched: Int, query: String, step: Int) {
        let matches: [Int]
        if mode == .infinite, let order {
            let positions = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            matches = feedMatches.compactMap { positions[$0] }.sorted()
        } else {
            matches = feedMatches
        }
        guard !matches.isEmpty else {
            say("no match for “\(query)” in the \(searched) loaded posts")
            return
        }
        let target: Int
        switch step {
        case 0: target = matches.first { $0 >= top } ?? matches[0]
        case 1...: target = matches.first { $0 > top } ?? matches[0]
        default: target = matches.last { $0 < top } ?? matches[matches.count - 1]
        }
        top = target
        pendingFeedIndex = nil
        let number = (matches.firstIndex(of: target) ?? 0) + 1
        say("match \(number) of \(matches.count) for “\(query)”")
        refreshView()
    }

    // MARK: The whole catalog

    /// After the reader's first scroll (on a terminal), the rest of the catalog loads in
    /// the background at low priority: the screen's own loads go first. Piped keys never
    /// start it, so their frames depend on the keys alone.
    func startCatalogLoad() {
        guard !piped, mode == .infinite, opened, !catalog.started, shown.hasMore else { return }
        catalog.started = true
        resumeCatalogLoad()
    }

    /// Starts the walk again from the last page the feed holds (nothing when it holds the
    /// end), with its progress polled on the status line.
    func resumeCatalogLoad() {
        catalog.finished = false
        catalog.line = "loading the catalog…"
        let (feed, previous) = (client.infinite, catalogStarter)
        catalogStarter = Task {
            await previous?.value
            await feed.startBackgroundCatalogLoad()
        }
        guard ticker == nil else { return }
        let events = events
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(300))
                events.yield(.tick)
            }
        }
    }

    /// Leaving infinite mode: the walk stops where it is (its pages stay loaded, and are
    /// saved with the place) until ``resumeCatalogLoad()``; the status line no longer
    /// speaks of it.
    func pauseCatalogLoad() async {
        guard catalog.started else { return }
        await catalogStarter?.value
        await client.infinite.cancelBackgroundCatalogLoad()
        cancel(.poll)
        ticker?.cancel()
        ticker = nil
        catalog.line = ""
    }

    /// Reads the catalog's progress; when posts were added, the view is read again (the
    /// header's count, `s` across the new posts). "All N posts loaded" only once the walk
    /// reached the end of the list; a walk that ended short of it (cancelled underneath)
    /// goes on.
    func pollCatalog() {
        guard catalog.started, mode == .infinite, opened, running[.poll] == nil else { return }
        let feed = client.infinite
        let shownCount = shown.loaded
        start(.poll) { _ in
            let (count, total, loading, more, failure, capped) = (
                await feed.count, await feed.totalCount, await feed.isBackgroundLoading, await feed.hasMore,
                await feed.backgroundError, await feed.backgroundCatalogCappedAt
            )
            return { screen in
                // Paused (paged mode) or reset (a refresh) since the poll began.
                guard screen.catalog.started, screen.mode == .infinite else { return }
                let progress = "catalog: \(count)\(total.map { " of \($0)" } ?? "") posts loaded…"
                if let failure {
                    screen.catalog.line = "catalog stopped at \(count) posts: \(failure)"
                } else if let capped, !loading, more {
                    // The same bound as `list --sort popularity`: the walk is not resumed.
                    screen.catalog.finished = true
                    screen.catalog.line = "catalog stopped at \(capped) posts: the feed goes on without saying where it ends "
                        + "(scroll on to load more)"
                    screen.ticker?.cancel()
                    screen.ticker = nil
                } else if loading {
                    screen.catalog.line = progress
                } else if more {
                    screen.catalog.line = progress
                    if screen.running[.refresh] == nil, screen.running[.open] == nil { screen.resumeCatalogLoad() }
                } else {
                    screen.catalog.finished = true
                    screen.catalog.line = total.map { $0 != count } == true
                        ? "catalog: the list ended at \(count) posts (the server counts \(total ?? count))"
                        : "catalog: all \(count) posts loaded"
                    screen.ticker?.cancel()
                    screen.ticker = nil
                }
                if count != shownCount {
                    screen.orderDirty = screen.order != nil
                    screen.refreshView()
                }
            }
        }
    }
}
