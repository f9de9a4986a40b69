import Foundation

/// Where readers' places are kept: each reader's list states (one per mode) and the
/// popularity order's progress, by ``ReaderID``. ``FeedClient/Configuration/placeStore``
/// picks one; by default it is the files under `<cache root>/State/` (``ListStateStore``),
/// and `PostFeedRedis`'s `RedisPlaceStore` keeps them in Redis for several instances of a
/// service. A service may plug in its own (a database).
///
/// **The read-modify-write rule** (DESIGN.md) holds in every store: each record carries a
/// generation. A save names the generation it was based on (the one loaded, 0 for none);
/// when the record now holds another generation, another process or instance saved in
/// between, and the two are merged as ``ListStateStore/save(_:basedOn:makingRoom:)`` does
/// (``ReaderPlaceRecord/merge(_:over:basedOn:in:)``): nobody's progress is erased. The record
/// written has generation `max(record's, basedOn) + 1`. The read, merge and write are one
/// atomic step per reader (a lock, a transaction, a compare-and-set).
public protocol ReaderPlaceStore: Sendable {
    /// `reader`'s saved state of `mode` for the backend, if one may be used here.
    func loadPlace(_ mode: ListMode, backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<ListState>
    /// Saves `state` for `reader` by read-modify-write on top of `generation`.
    func savePlace(_ state: ListState, basedOn generation: Int, reader: ReaderID) async throws(ListStateError)
        -> ListStateStore.SaveOutcome
    /// `reader`'s popularity order for the backend (an empty one when none was saved).
    func loadPopularityPlace(backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<PopularityOrderState>
    /// Saves `reader`'s popularity order by read-modify-write on top of `generation`.
    func savePopularityPlace(_ state: PopularityOrderState, basedOn generation: Int, reader: ReaderID) async throws(ListStateError)
        -> PopularityOrderState
}

/// What a ``ReaderPlaceStore`` load found: the state, or none, and one line when a record
/// was there but could not be used (another backend, corrupt, a newer version).
public struct ReaderPlaceLoad<State: Sendable>: Sendable {
    /// The usable state, or `nil`.
    public var state: State?
    /// Why a saved record was not used, in one line; `nil` when there was none or it was used.
    public var problem: String?

    public init(state: State?, problem: String? = nil) {
        self.state = state
        self.problem = problem
    }
}

/// The rules every ``ReaderPlaceStore`` applies to its records, for stores outside this
/// module (Redis, a database): the same bytes, checks and merge as the State files.
public enum ReaderPlaceRecord {
    /// The JSON bytes of `state`, as a state file holds them (trimmed to fit, as files are).
    /// - Throws: `.invalidState` when the state would not be read back; `where` names the record.
    public static func encode(_ state: ListState, where location: URL) throws(ListStateError) -> Data {
        var notices: [String] = []
        return try ListStateStore.encodedToFit(state, url: location, notices: &notices).data
    }

    /// The state in `data` when it is `mode`'s, this backend's and a version this build
    /// reads; else why not, in one line naming `location`.
    public static func decode(_ data: Data, mode: ListMode, backendIdentity: String, where location: String)
        -> ReaderPlaceLoad<ListState>
    {
        switch StateFileCheck.check(data, mode: mode, backendIdentity: backendIdentity) {
        case .success(let state): ReaderPlaceLoad(state: state)
        case .failure(let problem): ReaderPlaceLoad(state: nil, problem: "\(location) \(problem.description); starting fresh")
        }
    }

    /// What a save of `state` based on `generation` writes over `current` (the record's
    /// usable state, or `nil`): `state` when nobody saved since, else the two merged
    /// (``ListStateStore/save(_:basedOn:makingRoom:)``), with generation `max + 1`.
    /// - Parameters:
    ///   - state: The place being saved.
    ///   - current: The record's usable state now, or `nil` when it has none.
    ///   - generation: The generation `state` was loaded at.
    ///   - location: The record, as a notice names it (a file's path, a Redis key).
    public static func merge(_ state: ListState, over current: ListState?, basedOn generation: Int, in location: String)
        -> ListStateStore.SaveOutcome
    {
        var notices: [String] = []
        var merged = state
        var base = max(generation, 0)
        if let current {
            // Another process saved since this one read the record (a reset and new saves
            // can make the number smaller, so any difference counts).
            if current.generation != base {
                let (combined, result) = state.merged(over: current)
                merged = combined.withAnchorInside
                if case .replaced(let other) = result {
                    notices.append(
                        "another postfeed saved a different \(state.mode) place in \(location) since this one "
                            + "read it (\(other.placeSummary)); it is replaced by this run's (\(merged.placeSummary))")
                }
            } else {
                merged.seenPostIDs.formUnion(current.seenPostIDs)
            }
            base = max(base, current.generation)
        }
        merged.generation = base == Int.max ? base : base + 1
        return ListStateStore.SaveOutcome(state: merged, generation: merged.generation, notices: notices)
    }

    /// The popularity order in `data` when it is this backend's and version; else why not.
    public static func decodePopularity(_ data: Data, backendIdentity: String, where location: String)
        -> ReaderPlaceLoad<PopularityOrderState>
    {
        switch ListStateStore.popularityOrder(in: data, backendIdentity: backendIdentity) {
        case .success(let state): ReaderPlaceLoad(state: state)
        case .failure(let reason): ReaderPlaceLoad(state: nil, problem: "\(location): \(reason.problem); starting fresh")
        }
    }

    /// What a save of the popularity order `state` based on `generation` writes over
    /// `current`: posts another process showed since stay shown, before this one's.
    public static func mergePopularity(_ state: PopularityOrderState, over current: PopularityOrderState?, basedOn generation: Int)
        -> PopularityOrderState
    {
        var merged = state
        var base = max(generation, 0)
        if let current {
            if current.generation != base {
                // Another process showed posts of the order since: theirs stay shown.
                let theirs = Set(current.shownPostIDs)
                merged.shownPostIDs = current.shownPostIDs + state.shownPostIDs.filter { !theirs.contains($0) }
            }
            base = max(base, current.generation)
        }
        merged.generation = base == Int.max ? base : base + 1
        merged.savedAt = Post.formatDate(Date())
        return merged
    }

    /// The JSON bytes of a popularity order.
    public static func encodePopularity(_ state: PopularityOrderState, where location: URL) throws(ListStateError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(state)
        } catch {
            throw ListStateError(.invalidState, url: location, message: "cannot encode the popularity order for \(location): \(error)")
        }
    }
}

extension ListStateStore: ReaderPlaceStore {
    /// The store of `reader`'s files: this one for the default reader, its own folder
    /// `State/readers/<name>/` for a named one.
    public func store(for reader: ReaderID) -> ListStateStore {
        reader.isDefault && subfolders.isEmpty ? self : ListStateStore(cacheRoot: cacheRoot, reader: reader, now: now)
    }

    public func loadPlace(_ mode: ListMode, backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<ListState> {
        switch store(for: reader).load(mode: mode, backendIdentity: backendIdentity, setAside: .onNextSave) {
        case .none: ReaderPlaceLoad(state: nil)
        case .restored(let state): ReaderPlaceLoad(state: state)
        case .discarded(let reason, _): ReaderPlaceLoad(state: nil, problem: reason.message)
        }
    }

    public func savePlace(_ state: ListState, basedOn generation: Int, reader: ReaderID) async throws(ListStateError)
        -> SaveOutcome
    {
        try store(for: reader).save(state, basedOn: generation)
    }

    public func loadPopularityPlace(backendIdentity: String, reader: ReaderID) async -> ReaderPlaceLoad<PopularityOrderState> {
        let load = store(for: reader).loadPopularityOrder(backendIdentity: backendIdentity)
        let problem = load.problem.map { "\(Self.display($0.file)): \($0.problem); starting fresh" }
        return ReaderPlaceLoad(state: load.state, problem: problem)
    }

    public func savePopularityPlace(_ state: PopularityOrderState, basedOn generation: Int, reader: ReaderID)
        async throws(ListStateError) -> PopularityOrderState
    {
        try store(for: reader).savePopularityOrder(state, basedOn: generation)
    }
}
