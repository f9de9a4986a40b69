#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SuiteSupport
import Foundation
import PostFeed

/// Sample states and scratch folders shared by the list-state tests.
///
/// Post ids are `1000 + index`, so a test that mixes up ids and indexes fails.
enum StateSamples {
    static let backend = "postfeed http://127.0.0.1:6969/api/posts"
    static let otherBackend = "dummyjson https://dummyjson.com/posts"
    /// 2025-05-01T10:00:00Z, a whole second so it survives the JSON round trip.
    static let savedAt = Date(timeIntervalSince1970: 1_746_093_600)
    static let clock: @Sendable () -> Date = { savedAt }

    static func id(atIndex index: Int) -> PostID { PostID(1000 + index) }
    static func ids(_ range: Range<Int>) -> [PostID] { range.map(id(atIndex:)) }

    /// An infinite list of `loaded` posts in pages of `pageSize` keyed by page number, the
    /// reader at 0-based `anchorIndex`.
    static func infinite(
        loaded: Int = 50, pageSize: Int = 10, anchorIndex: Int? = 36, totalCount: Int? = 130, endReached: Bool = false
    ) -> ListState {
        let pages = (loaded + pageSize - 1) / pageSize
        return ListState(
            mode: .infinite, backendIdentity: backend, pageSize: pageSize, savedAt: savedAt,
            anchor: anchorIndex.map { ScrollAnchor(postID: id(atIndex: $0), index: $0) },
            totalCount: totalCount, endReached: endReached, seenPostIDs: PostIDSet(ids(0..<loaded)),
            loadedPostIDs: ids(0..<loaded), loadedPageKeys: (0..<pages).map { .number($0 + 1) },
            nextPageKey: endReached ? nil : .number(pages + 1))
    }

    /// Page `page` of `pageSize`, fully known, the reader at `indexInPage` on it.
    static func paged(page: Int = 4, pageSize: Int = 10, indexInPage: Int = 6, totalCount: Int? = 130) -> ListState {
        let start = (page - 1) * pageSize
        return ListState(
            mode: .paged, backendIdentity: backend, pageSize: pageSize, savedAt: savedAt,
            anchor: ScrollAnchor(postID: id(atIndex: start + indexInPage), page: page, indexInPage: indexInPage, pageSize: pageSize),
            totalCount: totalCount, seenPostIDs: [1000, 1001],
            loadedPostIDs: ids(start..<start + pageSize), loadedPageKeys: (1...page).map { .number($0) },
            currentPage: page, currentPageKey: .number(page))
    }
}

/// A fresh folder under the system temporary folder, removed by `remove()`.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-state-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Names of the entries of `folder`, sorted.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// Makes a folder read-only even for root, who ignores permission bits: `chmod 555`, and
/// when that is not enough, the ext4 immutable flag (`chattr +i`).
enum ReadOnlyFolder {
    /// Returns the undo, or `nil` when this machine offers no way to make `folder` read-only.
    static func make(_ folder: URL) -> (@Sendable () -> Void)? {
        let path = folder.path
        chmod(path, 0o555)
        if !isWritable(folder) {
            return { chmod(path, 0o755) }
        }
        if runChattr("+i", path), !isWritable(folder) {
            return {
                _ = runChattr("-i", path)
                chmod(path, 0o755)
            }
        }
        _ = runChattr("-i", path)
        chmod(path, 0o755)
        return nil
    }

    private static func isWritable(_ folder: URL) -> Bool {
        let probe = folder.appendingPathComponent(".probe-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
        try? FileManager.default.removeItem(at: probe)
        return true
    }

    private static func runChattr(_ flag: String, _ path: String) -> Bool {
        let chattr = "/usr/bin/chattr"
        guard FileManager.default.isExecutableFile(atPath: chattr) else { return false }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: chattr)
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
