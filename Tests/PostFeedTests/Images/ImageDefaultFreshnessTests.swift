import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 29, item 4: an image sent without `Cache-Control`, `Expires` or a validator (as
/// httpbin's `/image/png` and many origins send them) was stale at once under the pages'
/// freshness policy, so every run fetched it again. An image cache keeps images.
@Suite("Images without caching headers are kept for the default freshness")
struct ImageDefaultFreshnessTests {
    static func bareImageURL(_ server: RunningFixtureServer, _ name: String = "img-004.jpg") -> URL {
        server.baseURL.appendingPathComponent("test/bare-image").appendingPathComponent(name)
    }

    @Test("the next run (a new pipeline on the same disk) serves it from disk, without a request")
    func bareImageIsServedFromDiskNextRun() async throws {
        try await ImagePipelineTests.withPipeline(server: FixtureServerConfiguration(enablesTestRoutes: true)) {
            pipeline, server, disk, client in
            // Given an image fetched once from an origin that sends no caching header
            let url = Self.bareImageURL(server)
            let first = try await pipeline.image(for: url)
            #expect(first.source == .network)

            // When the next run asks for it
            let nextRun = try await ImagePipeline(loader: client, disk: disk).image(for: url)

            // Then the disk cache answers, fresh, and the origin was asked once
            #expect(nextRun.source == .disk)
            #expect(nextRun.isStale == false)
            #expect(nextRun.data == first.data)
            #expect(server.requestCount(path: "/test/bare-image/img-004.jpg") == 1)
        }
    }

    @Test("eight days later it is fetched again (no validator to revalidate with)")
    func bareImageExpiresAfterTheDefault() async throws {
        try await ImagePipelineTests.withPipeline(server: FixtureServerConfiguration(enablesTestRoutes: true)) {
            pipeline, server, disk, client in
            // Given an image without caching headers, fetched now
            let url = Self.bareImageURL(server, "img-005.jpg")
            _ = try await pipeline.image(for: url)

            // When a run eight days later asks for it
            let later = ImagePipeline(
                loader: client, disk: disk,
                configuration: ImagePipeline.Configuration(now: { Date().addingTimeInterval(8 * 86_400) }))
            let image = try await later.image(for: url)

            // Then it was fetched again
            #expect(image.source == .network)
            #expect(server.requestCount(path: "/test/bare-image/img-005.jpg") == 2)
        }
    }

    @Test("an image's explicit Cache-Control still wins: max-age=0 is revalidated the next run")
    func explicitHeadersWin() async throws {
        try await ImagePipelineTests.withPipeline(server: FixtureServerConfiguration(imageMaxAge: 0)) {
            pipeline, server, disk, client in
            // Given an image sent with Cache-Control: max-age=0 and validators
            let url = ImagePipelineTests.imageURL(server, "img-007.jpg")
            _ = try await pipeline.image(for: url)

            // When the next run asks for it
            let nextRun = try await ImagePipeline(loader: client, disk: disk).image(for: url)

            // Then it was revalidated (a 304), not kept for the default
            #expect(nextRun.source == .revalidated)
            #expect(server.requestCount(path: "/images/img-007.jpg") == 2)
        }
    }
}
