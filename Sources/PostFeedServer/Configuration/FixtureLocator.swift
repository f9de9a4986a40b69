import Foundation

/// Finds the fixture data on disk: `Fixtures/` for the ``BackendFlavor/postFeed`` flavor and
/// `Fixtures/peer-data/` (the JSONPlaceholder and DummyJSON data sets, MIT) for the others.
///
/// Nothing outside the repository is read: a clone in an empty folder serves every flavor.
///
/// Files are found from this source file's `#filePath` (no copies in test bundles), so tests
/// and a locally built `postfeed` work from any working directory. Order, first that applies:
///
/// 1. an explicit override (a `--fixtures` flag, a test's own directory);
/// 2. the environment: `POSTFEED_FIXTURES_DIR`, `POSTFEED_PEER_DATA_DIR`;
/// 3. `<repository>/Fixtures` and `<repository>/Fixtures/peer-data`, where `<repository>` is
///    the folder holding `Package.swift` above this file, when that folder exists;
/// 4. `./Fixtures` and `./Fixtures/peer-data` in the working directory, when they exist;
/// 5. otherwise the path from step 3, so the error names where the data was expected.
public enum FixtureLocator {
    /// Environment variable that overrides the `Fixtures/` directory.
    public static let fixturesEnvironmentKey = "POSTFEED_FIXTURES_DIR"
    /// Environment variable that overrides the peer-data directory.
    public static let peerDataEnvironmentKey = "POSTFEED_PEER_DATA_DIR"

    /// The repository root this module was compiled from: the nearest folder above this
    /// source file that holds a `Package.swift` (falls back to three levels up).
    public static var repositoryRoot: URL {
        repositoryRoot(startingAt: URL(fileURLWithPath: #filePath))
    }

    /// The `Fixtures/` directory to serve (see the type's documentation for the search order).
    public static func fixturesDirectory(override: URL? = nil) -> URL {
        locate(
            override: override, environmentKey: fixturesEnvironmentKey,
            fromRepository: repositoryRoot.appendingPathComponent("Fixtures", isDirectory: true),
            inWorkingDirectory: "Fixtures")
    }

    /// The peer-data directory (holding `jsonplaceholder/data.json` and `dummyjson/posts.json`).
    public static func peerDataDirectory(override: URL? = nil) -> URL {
        locate(
            override: override, environmentKey: peerDataEnvironmentKey,
            fromRepository: repositoryRoot.appendingPathComponent("Fixtures", isDirectory: true)
                .appendingPathComponent("peer-data", isDirectory: true),
            inWorkingDirectory: "Fixtures/peer-data")
    }

    static func repositoryRoot(startingAt file: URL) -> URL {
        let fileManager = FileManager.default
        var directory = file.deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        // Sources/PostFeedServer/Configuration/<file> → repository root.
        return file.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    private static func locate(
        override: URL?, environmentKey: String, fromRepository: URL, inWorkingDirectory name: String
    ) -> URL {
        if let override { return override }
        if let value = ProcessInfo.processInfo.environment[environmentKey], !value.isEmpty {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        if isDirectory(fromRepository) { return fromRepository }
        let local = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
        if isDirectory(local) { return local }
        return fromRepository
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
