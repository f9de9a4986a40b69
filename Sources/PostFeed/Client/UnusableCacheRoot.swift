import Foundation
import Logging
import PostFeedCache

/// What a ``FeedClient`` does when a disk layer's folder under the cache root cannot be
/// used: a read-only or missing parent, a file where the folder should be.
///
/// ```swift
/// // A service that must not run without its cache volume:
/// configuration.unusableCacheRoot = .fail
/// do { client = try FeedClient(configuration) }
/// catch where error.code == .cacheUnavailable { /* the volume is missing: say so and stop */ }
/// ```
public enum UnusableCacheRoot: Sendable, Hashable {
    /// Caches in a temporary folder of this client's own (`$TMPDIR/postfeed-<pid>-XXXXXX`,
    /// made with `mkdtemp`, so no two clients share one), with one warning per reason; the
    /// client's ``FeedClient/shutdown()`` removes that folder and no other. The default:
    /// a command-line run still works.
    case fallBackToTemporaryFolder
    /// As ``fallBackToTemporaryFolder``, with this client's own folder made under `parent`
    /// (`<parent>/postfeed-<pid>-XXXXXX`) instead of the temporary directory.
    case fallBack(under: URL)
    /// Throws ``FeedClientError`` `.cacheUnavailable` naming the folder and the reason.
    case fail
}

extension FeedClient {
    /// Opens a client's disk layers under one ``UnusableCacheRoot`` policy: each where it is
    /// configured, else (falling back) in the one temporary folder this opener made.
    struct LayerOpener {
        let policy: UnusableCacheRoot
        let logger: Logger
        /// This client's fallback folder, once one layer needed it.
        private(set) var fallbackFolder: URL?
        /// The reasons already warned about: a file in the way of the cache root is one
        /// problem, not one per layer.
        private var warned: Set<String> = []

        init(policy: UnusableCacheRoot, logger: Logger) {
            self.policy = policy
            self.logger = logger
        }

        /// The layer in `url`; when that folder cannot be used, per ``policy``.
        mutating func open(_ url: URL, _ configuration: DiskCache.Configuration) throws(FeedClientError) -> DiskCache {
            var configuration = configuration
            // The cache module cannot log; its one-per-condition warnings (read-only, full
            // disk) go through the client's logger.
            let logger = logger
            configuration.warningHandler = { warning in FeedClient.warn(FeedClient.readable(warning), logger: logger) }
            let reason: String
            do {
                return try DiskCache(directory: url, configuration: configuration)
            } catch {
                reason = "\(error)"
            }
            let parent: URL
            switch policy {
            case .fail:
                throw FeedClientError(
                    .cacheUnavailable, failure: "cannot use the cache folder \(url.path): \(reason); make it writable",
                    recovery: .chooseAnotherCacheRoot)
            case .fallBackToTemporaryFolder: parent = FileManager.default.temporaryDirectory
            case .fallBack(let under): parent = under
            }
            let folder: URL
            if let made = fallbackFolder { folder = made } else { folder = try Self.makeFallbackFolder(under: parent) }
            fallbackFolder = folder
            if warned.insert(reason).inserted {
                logger.warning(
                    "cannot use \(url.deletingLastPathComponent().path) (\(reason)); caching in \(folder.path) for this run")
            }
            let layer = folder.appendingPathComponent(url.lastPathComponent, isDirectory: true)
            do {
                return try DiskCache(directory: layer, configuration: configuration)
            } catch {
                throw FeedClientError(
                    .cacheUnavailable, failure: "cannot open a cache at \(url.path) nor at \(layer.path): \(error); make a folder writable",
                    recovery: .chooseAnotherCacheRoot)
            }
        }

        /// A new, empty folder only this client uses: `<parent>/postfeed-<pid>-XXXXXX`.
        static func makeFallbackFolder(under parent: URL) throws(FeedClientError) -> URL {
            let base = parent.appendingPathComponent("postfeed-\(getpid())-XXXXXX").path
            var template = Array(base.utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
                guard let start = buffer.baseAddress else { return false }
                return mkdtemp(start) != nil
            }
            guard made else {
                let reason = String(cString: strerror(errno))
                throw FeedClientError(
                    .cacheUnavailable, failure: "cannot make a temporary cache folder in \(parent.path): \(reason); make it writable",
                    recovery: .chooseAnotherCacheRoot)
            }
            let path = template.withUnsafeBufferPointer { buffer in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return URL(fileURLWithPath: path, isDirectory: true)
        }
    }
}
