import ArgumentParser
import Foundation
import PostFeedHTTP
import PostFeed
import PostFeedPreview
import PostFeedCache

/// Options every feed command shares: which backend, which cache, which page size.
struct BackendOptions: ParsableArguments {
    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Server root of a backend; the API paths are appended. Without it (and without --backend), the built-in fixture backend starts on a loopback port.",
            valueName: "url"))
    var baseURL: String?

    @Option(
        name: .customLong("api"),
        help: ArgumentHelp(
            "Backend convention: \(BackendPreset.names.joined(separator: ", ")). Default: feed when --base-url names a path (https://blog.example/feed/: RSS, Atom or JSON Feed, recognised from the answer), else postfeed. With the built-in backend, it speaks that convention too.",
            valueName: "preset"),
        completion: .list(BackendPreset.names),
        transform: { try BackendPreset.parse($0, option: "--api", orElse: ", or --backend with a config file") })
    var apiOption: BackendPreset?

    /// The convention spoken: `--api` when given; else `feed` when `--base-url` names a
    /// path beyond `/` (a feed is read by its URL alone: `…/feed/`, `…/feed.xml`,
    /// `…/feed.json`); else PostFeed's own API (a server root).
    var api: BackendPreset {
        if let apiOption { return apiOption }
        if let baseURL, let url = URL(string: baseURL), !url.path.isEmpty, url.path != "/" { return .feed }
        return .postfeed
    }

    @Option(
        name: .customLong("backend"),
        help: ArgumentHelp("A JSON backend description file (overrides --api); its baseURL is used unless --base-url is given.", valueName: "file"))
    var backendFile: String?

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "Cache root. Default: $POSTFEED_CACHE_DIR, ./Cache when it exists, else ~/.cache/postfeed.",
            valueName: "dir"))
    var cacheDirectory: String?

    @Option(
        name: .customLong("page-size"), parsing: .unconditional,
        help: "Posts per page, 1…100 (default 20). A feed's pages are as long as its server makes them.")
    var pageSizeOption: Int?

    /// `--page-size`, else the default (20).
    var pageSize: Int { pageSizeOption ?? BackendDescription.defaultPageSize }

    @Option(
        name: .customLong("timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds one request may take at most, its retries and the waits between them included (connecting and stalls too; default 60, or the --backend file's).",
            valueName: "seconds"))
    var timeout: Double?

    /// Seconds a request may take when neither `--timeout` nor the backend file says.
    static let defaultTimeout: Double = 60

    @Option(
        name: .customLong("shared-cache"),
        help: ArgumentHelp(
            "A Redis shared by several instances, behind the disk caches: pages and images found there are not fetched, and one instance fetches what none has (default: none, or the --backend file's sharedCache).",
            valueName: "redis://host:port[/db]"))
    var sharedCache: String?

    @Option(
        name: .customLong("proxy"),
        help: ArgumentHelp(
            "Send every request through this proxy (http://[user:password@]host:port, https://, socks5h://…); wins over HTTPS_PROXY/HTTP_PROXY/ALL_PROXY, NO_PROXY still applies; \"\" goes direct.",
            valueName: "url"))
    var proxy: String?

    @Flag(name: .customLong("offline"), help: "Use only what the caches hold; never touch the network.")
    var offline = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Log each request with its timings, retries, and fallbacks to cached copies to stderr, and at exit a summary of the cache counters and of the requests started, finished and cancelled.")
    var verbose = false

    func validate() throws {
        try Self.validateCacheDirectory(cacheDirectory)
        if let proxy { try ProxyOption.validate(proxy) }
        if let backendFile { try Self.validateBackendFile(backendFile) }
        if let timeout, !(timeout.isFinite && timeout > 0 && timeout <= BackendDescription.maximumRequestTimeout) {
            throw ValidationError("--timeout \(timeout) is out of range; give seconds above 0, at most \(Int(BackendDescription.maximumRequestTimeout)).")
        }
        if let sharedCache {
            guard !sharedCache.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--shared-cache is empty; give redis://host:port or redis://host:port/db, or leave the option out to use no shared cache.")
            }
            do { _ = try RedisAddress(parsing: sharedCache) } catch { throw ValidationError("--shared-cache: \(error)") }
        }
        guard (1...100).contains(pageSize) else {
            throw ValidationError("--page-size \(pageSize) is out of range; use 1…100.")
        }
        if let baseURL {
            // Shown without user info, also when the password holds characters a URL does not
            // allow there (those are the usual reason such a URL fails to parse).
            let shown = URLUserInfo.removed(fromTypedURL: baseURL)
            let encodeHint = shown != baseURL
                ? " (percent-encode characters like # / @ or a space in the user name or password)" : ""
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else {
                throw ValidationError("--base-url '\(shown)' is not an http(s) URL; use e.g. http://127.0.0.1:6969\(encodeHint).")
            }
            if url.fragment != nil {
                throw ValidationError("--base-url '\(shown)' has a fragment (#…), which never reaches a server; leave it out\(encodeHint).")
            }
            if let port = url.port, !(1...65_535).contains(port) {
                throw ValidationError("--base-url '\(shown)' has port \(port), out of range; use 1…65535.")
            }
        }
    }

    /// `--backend` names a file that is there: a usage error (exit 64) before anything
    /// starts, like every other bad option.
    static func validateBackendFile(_ path: String) throws {
        guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--backend is empty; give a backend config file (JSON), or leave the option out.")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValidationError("--backend \(path.shownPath): no such file; pass a backend config file (JSON).")
        }
        if isFolder.boolValue {
            throw ValidationError("--backend \(path.shownPath) is a folder, not a file; pass a backend config file (JSON).")
        }
    }

    /// An empty `--cache-dir` is a mistake (an unset shell variable), not a request for
    /// the default root: refuse it rather than write somewhere the user did not mean.
    static func validateCacheDirectory(_ path: String?) throws {
        if let path, path.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--cache-dir is empty; give a folder, or leave the option out to use the default cache root.")
        }
        var isFolder: ObjCBool = false
        if let path, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError("--cache-dir \(path.terminalLine) is a file, not a folder; give a folder (it is made when missing).")
        }
        // A cloned or unpacked folder can carry a `Cache` link pointing anywhere: never
        // create and clear folders there unless the user names it.
        if let link = CacheLocation.linkedWorkingDirectoryCache(explicit: path) {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)).map { " to \($0.terminalLine)" } ?? ""
            throw ValidationError(
                "./Cache is a symbolic link\(target), not used as the cache unless named; pass --cache-dir Cache if it is meant (or --cache-dir another folder).")
        }
    }

    /// The cache root in DESIGN.md's order.
    var cacheLocation: CacheLocation {
        CacheLocation.resolve(explicit: cacheDirectory)
    }
}
