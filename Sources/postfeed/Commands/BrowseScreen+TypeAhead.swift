import Foundation
import PostFeed
import PostFeedPreview

/// Keys typed ahead on a terminal. A key is handled at once against what is on screen,
/// unless what it acts on is still coming: the mode opening, a jump or search (`g 9 ⏎`,
/// `/…`) or a new order still being read, or a move past the loaded posts while more
/// follow. Then it waits, and every key after it too, and they are handled in order as
/// their loads end. The reader's own network loads (`g` past the loaded posts, a page in
/// paged mode, a refresh) hold no key: the screen stays usable while they run.
///
/// `q` (and Ctrl-C) quits at once; Esc drops the keys waiting and stops a load as always.
extension BrowseScreen {
    /// Handles `key` now or holds it behind what it needs; returns `false` to quit.
    func take(_ key: RawTerminal.Key) async -> Bool {
        if heldKeys.isEmpty, !mustWait(key) { return await press(key) }
        switch key {
        case .endOfInput, .interrupt, .character("q"):
            return false
        case .escape:
            let dropped = heldKeys.count
            heldKeys = []
            guard await press(.escape) else { return false }
            let note = "\(dropped) \(dropped == 1 ? "key" : "keys") typed ahead dropped"
            say(status.isEmpty ? "stopped: \(note)" : "\(status); \(note)")
            return true
        default:
            heldKeys.append(key)
            loadForHeldKeys()
            return true
        }
    }

    /// Presses the keys held whose wait is over, in order; returns `false` to quit.
    func pressHeldKeys() async -> Bool {
        while let key = heldKeys.first, !mustWait(key) {
            heldKeys.removeFirst()
            guard await press(key) else { return false }
        }
        loadForHeldKeys()
        return true
    }

    /// Whether `key` must wait: what it acts on is still being read or loaded.
    private func mustWait(_ key: RawTerminal.Key) -> Bool {
        // An overlay takes any key as it stands; these never need the list.
        guard overlay == nil else { return false }
        switch key {
        case .escape, .interrupt, .endOfInput, .character("q"), .character("?"), .character("l"), .character("i"):
            return false
        default:
            break
        }
        if running[.open] != nil || running[.search] != nil { return true }
        // A view that puts another post on top (a jump, a replaced page, a new order): a key
        // moves from that post, not from the one on screen.
        if running[.view] != nil, pendingFeedIndex != nil || pendingPostID != nil || orderDirty { return true }
        return movesPastLoadedEnd(key)
    }

    /// Infinite: `key` moves the top past the posts loaded while more follow.
    private func movesPastLoadedEnd(_ key: RawTerminal.Key) -> Bool {
        guard mode == .infinite, opened, shown.hasMore, !nextPageFailed else { return false }
        let delta: Int
        switch key {
        case .character("j"), .down: delta = 1
        case .character(" "), .pageDown: delta = screenful
        case .character("n") where searchQuery == nil: delta = client.configuration.pageSize
        default: return false
        }
        return PlaceConverter.saturatingAdd(top, delta) > shown.viewCount - 1
    }

    /// The first key held waits for the next page: loads it, unless a load or a view
    /// under way will wake the keys anyway.
    private func loadForHeldKeys() {
        guard let key = heldKeys.first, running[.view] == nil, movesPastLoadedEnd(key) else { return }
        loadMoreIfNeeded(forKeysTypedAhead: true)
    }
}
