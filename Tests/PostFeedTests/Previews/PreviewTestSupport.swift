import Foundation
import PostFeedPreview
import SuiteSupport
import PostFeedServer

/// A copy of `Fixtures/` a test may change (replace an image: a new ETag), removed at the end.
final class FixtureCopy: Sendable {
    let directory: URL

    init() throws {
        let source = FixtureLocator.fixturesDirectory()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-fixtures-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.copyItem(at: source, to: directory)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func image(_ name: String) -> URL {
        directory.appendingPathComponent("images").appendingPathComponent(name)
    }

    /// Puts the bytes of image `source` in place of image `name`.
    func replace(_ name: String, withImage source: String) throws {
        try Data(contentsOf: image(source)).write(to: image(name))
    }

    /// A server over this copy whose images are revalidated on every use (`max-age=0`), on
    /// a port of its own unless given (a second server at a stopped one's URL).
    func configuration(port: Int? = nil) throws -> FixtureServerConfiguration {
        FixtureServerConfiguration(port: try port ?? TestPorts.reserve(), fixturesDirectory: directory, imageMaxAge: 0)
    }
}
