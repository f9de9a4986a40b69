import Foundation

// The JSON form, written with sorted keys so the file reads the same every time:
//
// {
//   "anchor" : { "index" : 36, "postID" : 37 },      (or "postID" : "t3_1abc")
//   "backendIdentity" : "postfeed http://127.0.0.1:6969/api/posts",
//   "currentPage" : null,
//   …
//   "loadedPostIDs" : [ [ 1, 500 ], 777, [ 900, 851 ], "t3_1abc" ],
//   …
//   "version" : 3
// }
//
// Optional fields are written as explicit `null`, so every file shows every field.
//
// `loadedPostIDs` is an ordered list (the posts from the top of the list), written
// compactly since version 2: a run of consecutive integer ids is a `[first, last]` pair —
// `[1, 500]` is 1, 2, …, 500 and `[900, 851]` is 900, 899, …, 851 (a newest-first feed) —
// and any other id that is a canonical integer (``PostID/integerValue``: as `String(n)` writes
// an `Int`, no leading zero, no `+`) is a plain number. Since version 3 every other id is a
// string (`"t3_1abc"`, `"109876543210987654321"`); the anchor's `postID` and the seen set
// follow the same rule. Version 1 wrote every id as a plain number, version 2 numbers and
// runs; such files are still read (a plain list is a list of runs of one, a number is the
// id of its digits), and the next save writes version 3.
extension ListState: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, generation, mode, backendIdentity, pageSize, savedAt
        case anchor, totalCount, endReached, seenPostIDs, loadedPostIDs, loadedPageKeys, loadedPageCounts
        case shownLength
        case nextPageKey, currentPage, currentPageKey
    }

    /// Decodes and checks a state; throws `DecodingError` naming the field when a value
    /// could not be restored (a page size below 1, a paged state without a page, …).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fileVersion = try container.decode(Int.self, forKey: .version)
        // An older schema this build reads is upgraded as it is read: the state in memory
        // is of the current schema, and is saved as such. A newer one is kept as it is, for
        // `StateFileCheck` to refuse (a value below 1 is `problem`'s to name).
        version = (1..<Self.currentVersion).contains(fileVersion) ? Self.currentVersion : fileVersion
        generation = try container.decodeIfPresent(Int.self, forKey: .generation) ?? 0
        mode = try container.decode(ListMode.self, forKey: .mode)
        // Files written before credentials were kept out of identities may hold them: read
        // them without, so the place is kept and the next save drops the credentials.
        backendIdentity = BackendDescription.storedIdentity(try container.decode(String.self, forKey: .backendIdentity))
        pageSize = try container.decode(Int.self, forKey: .pageSize)
        let savedAtText = try container.decode(String.self, forKey: .savedAt)
        guard let date = Post.parseDate(savedAtText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .savedAt, in: container, debugDescription: "'\(savedAtText)' is not an ISO-8601 date")
        }
        savedAt = date
        anchor = try container.decodeIfPresent(ScrollAnchor.self, forKey: .anchor)
        totalCount = try container.decodeIfPresent(Int.self, forKey: .totalCount)
        endReached = try container.decode(Bool.self, forKey: .endReached)
        seenPostIDs = try container.decodeIfPresent(PostIDSet.self, forKey: .seenPostIDs) ?? []
        loadedPostIDs = try container.decodeIDRunsIfPresent(forKey: .loadedPostIDs) ?? []
        loadedPageKeys = try container.decodeElementsIfPresent(forKey: .loadedPageKeys) { try $0.decode(StoredPageKey.self).key } ?? []
        loadedPageCounts = try container.decodeElementsIfPresent(forKey: .loadedPageCounts) { try $0.decode(Int.self) }
        nextPageKey = try container.decodeIfPresent(StoredPageKey.self, forKey: .nextPageKey)?.key
        shownLength = try container.decodeIfPresent(Int.self, forKey: .shownLength)
        currentPage = try container.decodeIfPresent(Int.self, forKey: .currentPage)
        currentPageKey = try container.decodeIfPresent(StoredPageKey.self, forKey: .currentPageKey)?.key
        if let problem {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: problem))
        }
    }

    /// Encodes every field, optional ones as explicit `null` (``shownLength`` only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(generation, forKey: .generation)
        try container.encode(mode, forKey: .mode)
        try container.encode(backendIdentity, forKey: .backendIdentity)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(Post.formatDate(savedAt), forKey: .savedAt)
        try container.encode(anchor, forKey: .anchor)
        try container.encode(totalCount, forKey: .totalCount)
        try container.encode(endReached, forKey: .endReached)
        try container.encode(seenPostIDs, forKey: .seenPostIDs)
        try container.encodeIDRuns(loadedPostIDs, forKey: .loadedPostIDs)
        try container.encode(loadedPageKeys.map(StoredPageKey.init), forKey: .loadedPageKeys)
        try container.encodeIntegers(loadedPageCounts, forKey: .loadedPageCounts)
        try container.encode(nextPageKey.map(StoredPageKey.init), forKey: .nextPageKey)
        // Only where known (infinite state saved since it exists): older readers ignore it.
        try container.encodeIfPresent(shownLength, forKey: .shownLength)
        try container.encode(currentPage, forKey: .currentPage)
        try container.encode(currentPageKey.map(StoredPageKey.init), forKey: .currentPageKey)
    }

    /// The file's bytes: pretty-printed, keys sorted, ending in a newline.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Decodes a state file's bytes; throws `DecodingError` naming what is wrong.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(ListState.self, from: jsonData)
    }

    /// A state file's bytes decoded as a run restores them, or what is wrong with them in the
    /// words a run uses after the file's name: `is empty`, `is not JSON (damaged or cut
    /// short)`, `is not list state (missing field mode)`, `was saved by a newer PostFeed …`.
    public static func checked(fileData data: Data) -> Result<ListState, StateFileProblem> {
        StateFileCheck.decode(data).mapError { StateFileProblem(description: $0.description) }
    }

    /// What ``init(jsonData:)`` found wrong, in one line for a user: the field and the
    /// problem (`missing field mode`, `pageSize: expected Int`), without Swift's type dump.
    public static func describeDecodingFailure(_ error: any Error) -> String {
        StateFileCheck.describe(error)
    }

    /// This state as decoding its ``jsonData()`` gives it back, without the round trip:
    /// `savedAt` to the second, link keys parsed again from their text.
    var asStored: ListState {
        var stored = self
        stored.savedAt = Post.parseDate(Post.formatDate(savedAt)) ?? savedAt
        stored.loadedPageKeys = loadedPageKeys.map(\.asStored)
        stored.nextPageKey = nextPageKey?.asStored
        stored.currentPageKey = currentPageKey?.asStored
        return stored
    }
}

extension PageKey {
    /// The key as ``StoredPageKey`` decodes it back: a link is kept as its absolute text.
    fileprivate var asStored: PageKey {
        guard case .link(let url?) = self else { return self }
        return .link(URL(string: BackendDescription.removingUserInfo(url.absoluteString)))
    }
}

// MARK: - Arrays

// Why by hand: `decode([Int].self)` goes through the generic `Array: Decodable` path,
// element by element with dynamic casts. With 10,000 loaded ids that took ~13 ms to
// decode and ~5 ms to encode — most of a restore, which reads the state twice and writes
// it once (`postfeed-bench list`); 500 page keys took another ~3 ms. Reading the elements
// from an unkeyed container with a concrete type (the `Int` overload) does the same in a
// fifth of the time, writes the same bytes and fails with the same errors.
extension KeyedDecodingContainer {
    /// Like `decodeIfPresent([T].self, forKey:)`, each element read by `element`: `nil` when
    /// the key is missing or null.
    fileprivate func decodeElementsIfPresent<T>(
        forKey key: Key, _ element: (inout any UnkeyedDecodingContainer) throws -> T
    ) throws -> [T]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        var container: any UnkeyedDecodingContainer = try nestedUnkeyedContainer(forKey: key)
        var values: [T] = []
        values.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd { values.append(try element(&container)) }
        return values
    }
}

extension KeyedDecodingContainer {
    /// An ordered list of ids written as runs (see the top of this file): plain ids (numbers
    /// or strings) and `[first, last]` pairs, expanded in order. `nil` when the key is
    /// missing or null. Throws when a pair is not two ids, or the ids add up to more than
    /// ``ListState/maximumLoadedPostCount`` (a 20-byte `[0, 9000000000000000000]` must
    /// not make a run allocate without end).
    fileprivate func decodeIDRunsIfPresent(forKey key: Key) throws -> [PostID]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        var container = try nestedUnkeyedContainer(forKey: key)
        var ids: [PostID] = []
        ids.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            // A plain number is the usual element of a version 1 file: read as `Int` straight
            // away. A failed `decode` leaves the container at the element, which is then
            // read as a string id, else as a pair.
            if let id = try? container.decode(Int.self) {
                ids.append(PostID(id))
            } else if let text = try? container.decode(String.self) {
                guard let id = PostID(text) else {
                    throw DecodingError.dataCorruptedError(
                        in: container,
                        debugDescription: "the loaded post id \"\(PostID.escaped(String(text.prefix(40))))\" \(PostID.problem(with: text) ?? "is no id")")
                }
                ids.append(id)
            } else {
                var pair = try container.nestedUnkeyedContainer()
                let first = try pair.decode(Int.self)
                let last = try pair.decode(Int.self)
                guard pair.isAtEnd else {
                    throw DecodingError.dataCorruptedError(
                        in: pair, debugDescription: "a run of ids is a [first, last] pair, found more than two numbers")
                }
                let (width, overflow) = last.subtractingReportingOverflow(first)
                guard !overflow, width.magnitude < UInt(ListState.maximumLoadedPostCount - ids.count) else {
                    throw DecodingError.dataCorruptedError(
                        in: pair, debugDescription: "the run [\(first), \(last)] makes more than \(ListState.maximumLoadedPostCount) loaded ids")
                }
                if first <= last {
                    ids.append(contentsOf: (first...last).lazy.map { PostID($0) })
                } else {
                    ids.append(contentsOf: (last...first).reversed().lazy.map { PostID($0) })
                }
            }
            if ids.count > ListState.maximumLoadedPostCount {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "more than \(ListState.maximumLoadedPostCount) loaded ids")
            }
        }
        return ids
    }
}

extension KeyedEncodingContainer {
    /// Writes `ids` in order as runs: a run of two or more consecutive integer ids (counting
    /// up or down) as a `[first, last]` pair, any other integer id as a plain number, and
    /// an id that is no canonical integer as a string.
    fileprivate mutating func encodeIDRuns(_ ids: [PostID], forKey key: Key) throws {
        var container = nestedUnkeyedContainer(forKey: key)
        for run in ListState.idRuns(ids) {
            switch run {
            case .text(let id): try container.encode(id.text)
            case .numbers(let first, let last) where first == last: try container.encode(first)
            case .numbers(let first, let last):
                var pair = container.nestedUnkeyedContainer()
                try pair.encode(first)
                try pair.encode(last)
            }
        }
    }
}

extension ListState {
    /// One element of the written ``loadedPostIDs``.
    enum IDRun: Equatable {
        /// Integer ids `first` to `last`, counting up or down by one (one id when equal).
        case numbers(first: Int, last: Int)
        /// An id that is no canonical integer.
        case text(PostID)
    }

    /// `ids` cut into maximal runs of consecutive integer ids, each counting up or down by
    /// one; an id that is no canonical integer is a run of its own.
    static func idRuns(_ ids: [PostID]) -> [IDRun] {
        /// `next - previous` when it is 1 or -1 (no overflow), else `nil`.
        func step(_ previous: Int, _ next: Int) -> Int? {
            let (difference, overflow) = next.subtractingReportingOverflow(previous)
            return !overflow && (difference == 1 || difference == -1) ? difference : nil
        }
        let numbers = ids.map(\.integerValue)
        var runs: [IDRun] = []
        var index = 0
        while index < ids.count {
            guard let first = numbers[index] else {
                runs.append(.text(ids[index]))
                index += 1
                continue
            }
            var end = index
            if index + 1 < ids.count, let second = numbers[index + 1], let direction = step(first, second) {
                end = index + 1
                while end + 1 < ids.count, let current = numbers[end], let next = numbers[end + 1], step(current, next) == direction {
                    end += 1
                }
            }
            runs.append(.numbers(first: first, last: numbers[end] ?? first))
            index = end + 1
        }
        return runs
    }
}

extension KeyedEncodingContainer {
    /// Like `encode([Int]?, forKey:)`: an explicit `null` for `nil`.
    fileprivate mutating func encodeIntegers(_ values: [Int]?, forKey key: Key) throws {
        guard let values else { return try encodeNil(forKey: key) }
        var container = nestedUnkeyedContainer(forKey: key)
        for value in values { try container.encode(value) }
    }
}

/// What is wrong with a state file, in words that follow its name ("is not JSON (damaged
/// or cut short)"); ``ListState/checked(fileData:)`` gives it.
public struct StateFileProblem: Error, Sendable, CustomStringConvertible {
    /// The words after the file's name.
    public let description: String
}
