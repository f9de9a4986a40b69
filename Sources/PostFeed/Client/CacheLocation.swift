import Foundation

/// The cache root and the folders under it (DESIGN.md, "On disk").
///
/// ```
/// <root>/ImageCache/   disk image cache
/// <root>/PageCache/    cached page responses
/// <root>/ThumbnailCache/  rendered image previews (only with PostFeedPreview's plugin)
/// <root>/State/        one list-state file per mode
/// ```
public struct CacheLocation: Sendable, Hashable {
    /// Why this root was chosen, for a cache report and error messages.
    public enum Source: String, Sendable, Hashable {
        /// Given explicitly (the CLI's cache folder option), or
        /// ``CacheLocation/init(root:source:)`` by default.
        case option = "given explicitly"
        /// The `POSTFEED_CACHE_DIR` environment variable.
        case environment = "$POSTFEED_CACHE_DIR"
        /// A `Cache/` folder in the working directory.
        case workingDirectory = "./Cache"
        /// `$XDG_CACHE_HOME/postfeed`, else `~/.cache/postfeed`.
        case platform = "platform Caches directory"
    }

    /// The folder everything lives under; standardized (no `.` or `..`) by the initializer.
    public var root: URL
    /// Why ``root`` was chosen.
    public var source: Source

    /// Uses `root` as given. ``resolve(explicit:environment:workingDirectory:)`` chooses one
    /// the way the CLI does.
    public init(root: URL, source: Source = .option) {
        self.root = root.standardizedFileURL
        self.source = source
    }

    /// `<root>/ImageCache/`: the image pipeline's disk layer.
    public var imageCache: URL { root.appendingPathComponent("ImageCache", isDirectory: true) }
    /// `<root>/PageCache/`: cached page and post responses.
    public var pageCache: URL { root.appendingPathComponent("PageCache", isDirectory: true) }
    /// `<root>/State/`: one list-state file per mode (``ListStateStore``).
    public var state: URL { root.appendingPathComponent("State", isDirectory: true) }

    /// The first that applies: `explicit` (`--cache-dir`), `$POSTFEED_CACHE_DIR`, `./Cache`
    /// when the working directory has a `Cache/` folder, else `$XDG_CACHE_HOME/postfeed`,
    /// else `~/.cache/postfeed`.
    ///
    /// A `./Cache` that is a symbolic link is never taken implicitly (a cloned or unpacked
    /// folder can carry one pointing anywhere): it is passed over here, and the CLI refuses
    /// to run (``linkedWorkingDirectoryCache(explicit:environment:workingDirectory:)``). Named
    /// explicitly, through `explicit` or `$POSTFEED_CACHE_DIR`, a link is followed.
    public static func resolve(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> CacheLocation {
        if let explicit, !explicit.isEmpty {
            return CacheLocation(root: absolute(explicit, from: workingDirectory), source: .option)
        }
        if let path = environment["POSTFEED_CACHE_DIR"], !path.isEmpty {
            return CacheLocation(root: absolute(path, from: workingDirectory), source: .environment)
        }
        let local = workingDirectory.appendingPathComponent("Cache", isDirectory: true)
        var isDirectory: ObjCBool = false
        if !isSymbolicLink(local), FileManager.default.fileExists(atPath: local.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return CacheLocation(root: local, source: .workingDirectory)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return CacheLocation(root: URL(fileURLWithPath: xdg).appendingPathComponent("postfeed"), source: .platform)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return CacheLocation(
            root: home.appendingPathComponent(".cache", isDirectory: true).appendingPathComponent("postfeed"),
            source: .platform)
    }

    /// `./Cache` when it is a symbolic link and would otherwise be the root (no `explicit`
    /// and no `$POSTFEED_CACHE_DIR`); `nil` otherwise. The CLI refuses to run then: the user
    /// names it with `--cache-dir` if it is meant.
    public static func linkedWorkingDirectoryCache(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> URL? {
        if let explicit, !explicit.isEmpty { return nil }
        if let path = environment["POSTFEED_CACHE_DIR"], !path.isEmpty { return nil }
        let local = workingDirectory.appendingPathComponent("Cache", isDirectory: false)
        return isSymbolicLink(local) ? local : nil
    }

    /// Whether `url` is a symbolic link itself (`lstat`).
    private static func isSymbolicLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    private static func absolute(_ path: String, from base: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded, isDirectory: true)
            : base.appendingPathComponent(expanded, isDirectory: true)
    }
}
