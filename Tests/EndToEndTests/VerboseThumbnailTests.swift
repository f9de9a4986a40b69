import Foundation
import PostFeedServer
import Testing

/// Issue 17: `--verbose`'s summary counted the image and page caches but not the thumbnail
/// cache: a second `show` drawn from its thumbnail looked like it did nothing cached. It
/// now says the thumbnail lookups and how many images were decoded.
@Suite("postfeed --verbose: thumbnail hits and decodes")
struct VerboseThumbnailTests {
    private static func summary(_ result: PostfeedResult) -> String? {
        result.errorLines.last { $0.hasPrefix("postfeed: cache: ") }
    }

    @Test("a first show misses the thumbnail and decodes once; a second hits it and decodes nothing")
    func secondShowIsAThumbnailHit() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let arguments = ["show", "42", "--images", "symbols", "--verbose"]
            let first = try await sandbox.run(arguments, against: server)
            let second = try await sandbox.run(arguments, against: server)
            try #require(first.succeeded && second.succeeded, "\(first)\n\(second)")

            let firstLine = try #require(Self.summary(first), "\(first)")
            #expect(firstLine.contains("thumbnails 0 hits, 1 miss, 1 decode"), "\(firstLine)")
            let secondLine = try #require(Self.summary(second), "\(second)")
            #expect(secondLine.contains("thumbnails 1 hit, 0 misses, 0 decodes"), "\(secondLine)")
            #expect(second.errorLines.last == secondLine)

            // Nothing drawn, nothing looked up: no thumbnail part at all.
            let none = try await sandbox.run(["show", "42", "--images", "none", "--verbose"], against: server)
            let noneLine = try #require(Self.summary(none), "\(none)")
            #expect(!noneLine.contains("thumbnail"), "\(noneLine)")
        }
    }
}
