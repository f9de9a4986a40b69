import Foundation
import PostFeedCache

/// How far the popularity order has been shown: the posts `list --sort popularity` (or any
/// reader of ``FeedClient/popularityOrder(maximumPosts:progress:)``) printed, in the order
/// printed, kept in `State/popularity-order-state.json` so the next run continues with the
/// most popular posts not shown yet.
///
/// Kept apart from the reader's place: the popularity order is a view over the whole feed,
/// and showing it never moves the place. Its posts count as seen: the infinite feed's
/// ``InfiniteFeed/Configuration/unseenOnly`` hides them (``FeedClient/resumeInfinite()``).
///
/// Saved as the list states are (``ListStateStore/savePopularityOrder(_:basedOn:)``):
/// read-modify-write under the state lock with a generation, so two processes never erase
/// each other's progress, never through a symbolic link.
public struct PopularityOrderState: Codable, Equatable, Sendable {
    /// The schema version this build writes and reads.
    public static let currentVersion = 1
    /// The file's name in the state folder.
    public static let fileName = "popularity-order-state.json"
    /// A file larger than this is not a popularity order (10 million ids fit).
    public static let maximumBytes = 128 << 20

    /// Schema version of the file.
    public var version = Self.currentVersion
    /// `BackendDescription.identity` of the backend whose posts these are.
    public var backendIdentity: String
    /// Ids of the posts shown so far, in the order they were shown.
    public var shownPostIDs: [PostID]
    /// When the file was written, ISO-8601 (UTC).
    public var savedAt: String
    /// Counts the saves of the file, as ``ListState/generation`` does; 0 in older files.
    public var generation: Int

    /// An order shown from its top for `backendIdentity`.
    public init(backendIdentity: String, shownPostIDs: [PostID] = [], savedAt: String = "", generation: Int = 0) {
        self.backendIdentity = backendIdentity
        self.shownPostIDs = shownPostIDs
        self.savedAt = savedAt
        self.generation = generation
    }

    private enum CodingKeys: String, CodingKey { case version, backendIdentity, shownPostIDs, savedAt, generation }

    /// Decodes a file; `generation` may be missing (files written before it existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        backendIdentity = try container.decode(String.self, forKey: .backendIdentity)
        shownPostIDs = try container.decode([PostID].self, forKey: .shownPostIDs)
        savedAt = try container.decode(String.self, forKey: .savedAt)
        generation = max(try container.decodeIfPresent(Int.self, forKey: .generation) ?? 0, 0)
    }

    /// Why a file's order cannot be used here.
    public enum Problem: Sendable, Equatable {
        /// Not JSON of this shape (the decoder's or the reader's reason).
        case unreadable(String)
        /// Another schema version.
        case version(Int)
        /// Saved for another backend.
        case otherBackend(String)
        /// A symbolic link where the file belongs: refused and left in place.
        case link(String)
    }
}

extension ListStateStore {
    /// What ``loadPopularityOrder(backendIdentity:settingAside:)`` found.
    public struct PopularityOrderLoad: Sendable {
        /// The order saved for the backend, or an empty one.
        public var state: PopularityOrderState
        /// Why a file there could not be used, and where it was set aside (`nil` when it
        /// stayed: a link, or a set-aside that failed).
        public var problem: (problem: PopularityOrderState.Problem, file: URL, keptAs: URL?)?
    }

    /// The popularity order saved for `backendIdentity`, or an empty one. A file that cannot
    /// be used (not JSON, another version, another backend) is set aside as
    /// `*.corrupt-<time>` and reported; a link is refused and left where it is.
    /// With `settingAside` `false` an unusable file is reported and left where it is (a
    /// reader that only needs the posts shown, to hide them).
    public func loadPopularityOrder(backendIdentity: String, settingAside: Bool = true) -> PopularityOrderLoad {
        let empty = PopularityOrderState(backendIdentity: backendIdentity)
        let name = PopularityOrderState.fileName
        let file = directory.appendingPathComponent(name)
        let problem: PopularityOrderState.Problem
        do {
            guard let data = try contents(ofFileNamed: name, maximumBytes: PopularityOrderState.maximumBytes) else {
                return PopularityOrderLoad(state: empty)
            }
            switch Self.popularityOrder(in: data, backendIdentity: backendIdentity) {
            case .success(let state): return PopularityOrderLoad(state: state)
            case .failure(let reason): problem = reason.problem
            }
        } catch where error.systemError == ELOOP {
            return PopularityOrderLoad(state: empty, problem: (.link(error.message), file, nil))
        } catch {
            problem = .unreadable(error.message)
        }
        let aside = settingAside ? try? setAside(fileNamed: name) : nil
        return PopularityOrderLoad(state: empty, problem: (problem, file, aside))
    }

    /// Saves `state` by read-modify-write under the state lock: when the file holds another
    /// generation than `basedOn` (another process saved since this one loaded it), the posts
    /// it lists are kept, before this run's. Returns the state written.
    @discardableResult
    public func savePopularityOrder(_ state: PopularityOrderState, basedOn generation: Int) throws(ListStateError) -> PopularityOrderState {
        let name = PopularityOrderState.fileName
        let url = directory.appendingPathComponent(name)
        let folder: DirectoryHandle
        do throws(SystemCallFailure) {
            folder = try StateFileSystem.openFolder(root: cacheRoot, creating: true, subfolders: subfolders)
        } catch {
            throw Self.otherFileSaveError(error, url: url)
        }
        return try StateFileSystem.withExclusiveLock(
            in: folder, refusal: { Self.linkError($0, saving: url) }
        ) { () throws(ListStateError) -> PopularityOrderState in
            var current: PopularityOrderState?
            if case .data(let data) = StateFileSystem.read(name, in: folder, maximumBytes: PopularityOrderState.maximumBytes),
               case .success(let usable) = Self.popularityOrder(in: data, backendIdentity: state.backendIdentity)
            {
                current = usable
            }
            let merged = ReaderPlaceRecord.mergePopularity(state, over: current, basedOn: generation)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data: Data
            do {
                data = try encoder.encode(merged)
            } catch {
                throw ListStateError(.invalidState, url: url, message: "cannot encode the popularity order for \(Self.display(url)): \(error)")
            }
            try write(data, toFileNamed: name)
            return merged
        }
    }

    struct PopularityOrderUnusable: Error { var problem: PopularityOrderState.Problem }

    static func popularityOrder(in data: Data, backendIdentity: String) -> Result<PopularityOrderState, PopularityOrderUnusable> {
        guard let state = try? JSONDecoder().decode(PopularityOrderState.self, from: data) else {
            return .failure(.init(problem: .unreadable("JSON with version, backendIdentity, shownPostIDs")))
        }
        if state.version != PopularityOrderState.currentVersion { return .failure(.init(problem: .version(state.version))) }
        if state.backendIdentity != backendIdentity { return .failure(.init(problem: .otherBackend(state.backendIdentity))) }
        return .success(state)
    }
}
