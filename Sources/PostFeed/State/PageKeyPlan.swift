/// The keys of pages 1, 2, 3, … of one page size: those a state already knows, else what
/// the style of the first page's key implies (page numbers count up, offsets step by the
/// page size); cursors and links past the known ones cannot be known without walking.
struct PageKeyPlan {
    /// Never list more pages than this; the feed loads the rest from the next key.
    static let maximumListedPages = 10_000

    let firstPageKey: PageKey
    let pageSize: Int
    /// Keys already known, by 1-based page number, valid for `pageSize`.
    let known: [Int: PageKey]

    /// The key of 1-based page `page`, or `nil` when it cannot be known.
    func key(forPage page: Int) -> PageKey? {
        guard page >= 1 else { return nil }
        if let key = known[page] { return key }
        if page == 1 { return firstPageKey }
        switch firstPageKey {
        case .number(let first):
            return .number(PlaceConverter.saturatingAdd(first, page - 1))
        case .offset(let first):
            return .offset(PlaceConverter.saturatingAdd(first, PlaceConverter.firstIndex(ofPage: page, pageSize: pageSize)))
        case .cursor, .link:
            return nil
        }
    }

    /// The keys of pages 1…`last`, stopping at the first that cannot be known.
    func knownKeys(through last: Int) -> [PageKey] {
        var keys: [PageKey] = []
        var page = 1
        while page <= min(last, Self.maximumListedPages), let key = key(forPage: page) {
            keys.append(key)
            page += 1
        }
        return keys
    }

    /// The pages an infinite list fetches to hold pages 1…`pages`, and the key it loads next.
    ///
    /// When a key cannot be known (a cursor not yet walked), the list stops before it and
    /// its next key is the last known page, whose response names the following one. The
    /// next key is `nil` only when `listLength` (an upper bound) shows the end is inside.
    func infiniteList(covering pages: Int, listLength: Int?) -> (loaded: [PageKey], next: PageKey?) {
        var loaded = knownKeys(through: pages)
        let coversAll = loaded.count == max(pages, 0)
        if coversAll, let listLength,
           PlaceConverter.firstIndex(ofPage: PlaceConverter.saturatingAdd(loaded.count, 1), pageSize: pageSize) >= listLength {
            return (loaded, nil)
        }
        if let next = key(forPage: loaded.count + 1) {
            return (loaded, next)
        }
        // `knownKeys` always holds page 1 (the first page key), so this is never empty.
        guard let last = loaded.popLast() else { return ([], firstPageKey) }
        return (loaded, last)
    }
}
