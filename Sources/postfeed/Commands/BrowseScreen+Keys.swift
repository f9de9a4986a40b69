import Foundation
import PostFeed
import PostFeedPreview

extension BrowseScreen {
    /// Applies a key to what is on screen; returns `false` to quit. Never waits for the
    /// network: loads start as jobs.
    func press(_ key: RawTerminal.Key) async -> Bool {
        if key == .endOfInput || key == .interrupt { return false }
        loadBudget = Self.pagesToFillAScreen
        switch overlay {
        case .detail(_, let text, let above):
            // A key that scrolls the detail view keeps it; any other closes it.
            if !scrollDetail(key, above: above, text: text) { closeOverlay() }
            return true
        case .help, .message:
            // A key that scrolls the help or a long message keeps it; any other closes it.
            if !scrollText(key) { closeOverlay() }
            return true
        case .goTo(let typed):
            typeGoTo(key, into: typed)
            return true
        case .search(let typed):
            typeSearch(key, into: typed)
            return true
        case nil:
            break
        }
        if key == .character("q") { return false }
        // `l` shows whole what the status line showed (the message and the catalog's progress).
        let statusShown = statusText
        status = ""
        switch key {
        case .character("?"):
            overlay = .help
            textScroll = 0
        case .character("l"):
            messageShown = statusShown.isEmpty ? lastMessage : statusShown
            overlay = .message
            textScroll = 0
        case .character("i"): toggleThumbnails()
        case .escape: escape()
        case .character("m"): await toggleMode()
        default:
            guard opened else {
                say(running[.open] != nil ? "still opening \(mode) mode…" : "\(mode) mode did not open; m switches back")
                return true
            }
            navigate(key)
        }
        return true
    }

    /// j/k/space/b (and the arrows, Page Down/Up) scroll a detail view taller than the
    /// window; returns `false` for any other key, and when everything fits (the key then
    /// goes back, as it always did).
    private func scrollDetail(_ key: RawTerminal.Key, above: [String], text: [String]) -> Bool {
        guard let size = terminal.size else { return false }
        let page = detailPage(above: above, text: text, size: size)
        guard page.maxScroll > 0, let delta = BrowseDetailLayout.scrollDelta(for: key, rows: size.rows) else { return false }
        detailScroll = BrowseDetailLayout.scrolled(
            page.scroll, by: delta, maxScroll: page.maxScroll, imageRows: detailPreview == nil ? 0 : above.count)
        return true
    }

    /// The detail view's scroll keys on a help taller than the window; returns `false` for
    /// any other key, and when the help fits (the key then closes it, as it always did).
    private func scrollText(_ key: RawTerminal.Key) -> Bool {
        guard let size = terminal.size, let page = textPage(size: size) else { return false }
        guard page.maxScroll > 0, let delta = BrowseDetailLayout.scrollDelta(for: key, rows: size.rows) else { return false }
        textScroll = BrowseDetailLayout.scrolled(page.scroll, by: delta, maxScroll: page.maxScroll, imageRows: 0)
        return true
    }

    /// Keys that need the mode open.
    private func navigate(_ key: RawTerminal.Key) {
        switch key {
        case .character("j"), .down: move(by: 1)
        case .character("k"), .up: move(by: -1)
        case .character(" "), .pageDown: move(by: screenful)
        case .character("b"), .pageUp: move(by: -screenful)
        case .character("n") where searchQuery != nil: find(step: 1)
        case .character("N"): find(step: -1)
        case .character("n"): page(by: 1)
        case .character("p"): page(by: -1)
        case .character("g"): overlay = .goTo(typed: "")
        case .character("r"): refresh()
        case .character("s"): toggleOrder(popularity: true)
        case .character("u"): toggleOrder(popularity: false)
        case .character("o"), .enter: openDetail()
        case .character("/"): overlay = .search(typed: "")
        default: break
        }
    }

    /// What space and b move by: the posts drawn (fewer than read with `--rows` larger than
    /// the window, so none is skipped unseen), at least 1.
    var screenful: Int {
        let drawn = postsDrawn(entries())
        return max(1, drawn > 0 ? min(drawn, visibleCount) : visibleCount)
    }

    /// Esc: stops a load the reader asked for (`g`, a page), else clears the search.
    private func escape() {
        if cancel(.goTo) {
            // Said once the view has read how many posts the load left (not the count of the
            // screen before it).
            saysStoppedLoading = true
            refreshView()
        } else if let target = pageTarget, cancel(.page) {
            pageTarget = nil
            say("stopped loading page \(target)")
        } else if searchQuery != nil {
            searchQuery = nil
            cancel(.search)
            say("search cleared")
        }
    }

    func move(by delta: Int) {
        pendingFeedIndex = nil
        switch mode {
        case .infinite:
            // A typed post number may be anything up to Int.max: saturate, never trap.
            let target = max(0, PlaceConverter.saturatingAdd(top, delta))
            top = min(target, max(0, shown.viewCount - 1))
            if delta > 0, PlaceConverter.saturatingAdd(top, visibleCount) >= shown.viewCount, !shown.hasMore {
                say("end of the feed (\(counted(shown.viewCount, "post")))")
            }
            if delta != 0 { startCatalogLoad() }
            refreshView()
        case .paged:
            let target = PlaceConverter.saturatingAdd(top, delta)
            if target >= shown.loaded {
                page(by: 1)
            } else if target < 0 {
                page(by: -1)
            } else {
                top = target
                refreshView()
            }
        }
    }

    func page(by delta: Int) {
        switch mode {
        case .infinite:
            move(by: delta * client.configuration.pageSize)
        case .paged:
            let current = pageTarget ?? shown.page
            let target = PlaceConverter.saturatingAdd(current, delta)
            if delta > 0, shown.totalPages.map({ target > $0 }) ?? (pageTarget == nil && !shown.hasMore) {
                say("this is the last page")
            } else if target < 1 {
                say("this is the first page")
            } else {
                goToPage(target)
            }
        }
    }

    /// A key typed at the "go to" prompt: Enter goes, Escape cancels, Backspace erases.
    private func typeGoTo(_ key: RawTerminal.Key, into typed: String) {
        switch key {
        case .enter:
            overlay = nil
            goTo(typed)
        case .escape:
            overlay = nil
        default:
            if let edited = Self.edit(typed, with: key) { overlay = .goTo(typed: edited) }
        }
    }

    /// A key typed at the search prompt: Enter searches, Escape cancels, Backspace erases.
    private func typeSearch(_ key: RawTerminal.Key, into typed: String) {
        switch key {
        case .enter:
            overlay = nil
            guard !typed.isEmpty else { return }
            searchQuery = typed
            find(step: 0)
        case .escape:
            overlay = nil
        default:
            if let edited = Self.edit(typed, with: key) { overlay = .search(typed: edited) }
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

    private func goTo(_ typed: String) {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }  // nothing typed: cancelled
        // A number too large for Int is past any end, not "not a number".
        let digits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
        guard let number = Int(text) ?? (digits ? Int.max : nil) else {
            say("'\(typed)' is not a number")
            return
        }
        switch mode {
        case .paged:
            // Past the end when the number of pages is known: said at once, nothing loaded.
            if let pages = shown.totalPages, number > pages {
                say("page \(text) is past the end (\(pages) pages); try 1…\(pages)")
                return
            }
            goToPage(number)
        case .infinite:
            guard number >= 1 else {
                say("posts are numbered from 1")
                return
            }
            // Past the end when the total is known: said at once, without loading every page.
            if let total = shown.total, number > total {
                say("the feed ends at post #\(total); there is no post #\(text)")
                return
            }
            if number <= shown.loaded {
                pendingFeedIndex = number - 1
                refreshView()
            } else {
                loadUntil(post: number)
            }
        }
    }

    /// `s` (popularity) and `u` (unseen only) in infinite mode; the post on top stays.
    private func toggleOrder(popularity: Bool) {
        guard mode == .infinite else {
            say(popularity
                ? "s orders the infinite feed by popularity; m switches to it"
                : "u hides posts seen in earlier runs in the infinite feed; m switches to it")
            return
        }
        if popularity {
            byPopularity.toggle()
            // No count here: it would go stale as the catalog loads (the header keeps it).
            say(byPopularity
                ? "most popular first, across the loaded posts" + (catalog.isLoading ? " and the catalog as it loads" : "")
                : "in the feed's order")
        } else {
            unseenOnly.toggle()
            say(unseenOnly ? "unseen only: posts shown in earlier runs are hidden (this run's stay)" : "every post shown")
        }
        pendingFeedIndex = topFeedIndex
        orderDirty = true
        refreshView()
    }

    private func toggleMode() async {
        guard running[.open] == nil else {
            say("still opening \(mode) mode…")
            return
        }
        for job in Array(running.keys) where job != .poll { cancel(job) }
        pageTarget = nil
        // Paged mode never reads the catalog: its walk pauses, and goes on from where it
        // was when infinite mode opens again (its pages are in the state saved below).
        if mode == .infinite { await pauseCatalogLoad() }
        do {
            try await save()
            let target: ListMode = mode == .infinite ? .paged : .infinite
            let report = try client.switchMode(to: target)
            mode = target
            opened = false
            shown = BrowseView()
            top = 0
            order = nil
            orderDirty = byPopularity || unseenOnly
            open(announcing: "\(target) mode" + (report.page.map { ", page \($0)" } ?? "")
                + (report.anchor.map { ", post #\($0.position) in view" } ?? ""))
        } catch {
            say("\(error)")
        }
    }
}

extension BrowseScreen {
    /// Closes the overlay on screen (help, a message, a post's detail view), cancelling a
    /// detail load or preview still running.
    func closeOverlay() {
        overlay = nil
        textScroll = 0
        cancel(.detail)
        cancel(.preview)
        detailPreview = nil
        (detailPost, detailNote) = (nil, nil)
    }
}
