import Foundation
import Logging
import PostFeed
import PostFeedServer
import Synchronization
import Testing

@Suite("FeedClient's logger and scoped use")
struct FeedClientLoggingTests {
    /// Keeps every record it is given, with its metadata.
    struct RecordingHandler: LogHandler {
        final class Records: Sendable {
            let lines = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
        }
        let records: Records
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            event.metadata.map { merged.merge($0) { _, new in new } }
            records.lines.withLock { $0.append((event.message.description, merged)) }
        }
    }

    @Test("Every part of the graph logs through the logger the client was given, tagged with its component")
    func partsUseTheGivenLogger() async throws {
        let records = RecordingHandler.Records()
        var logger = Logger(label: "app") { _ in RecordingHandler(records: records) }
        logger[metadataKey: "request-id"] = "r-42"
        let root = FeedTestSupport.temporaryDirectory("logging")
        defer { try? FileManager.default.removeItem(at: root) }

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            try await FeedClient.withFeedClient(configuration, logger: logger) { client in
                try await client.infinite.loadMore()
            }
        }

        // The HTTP engine logs each response at debug level; the repository logs pages.
        let components = Set(records.lines.withLock { $0.compactMap { $0.metadata["component"]?.description } })
        #expect(components.contains("http"), "\(components)")
        let requestIDs = records.lines.withLock { $0.map { $0.metadata["request-id"]?.description ?? "none" } }
        let allCarryRequestID = requestIDs.allSatisfy { $0 == "r-42" }
        #expect(allCarryRequestID, "\(requestIDs)")
    }

    /// An actor's state, read inside the scoped client: the body runs on the actor.
    actor Reader {
        var titles: [String] = []

        func read(_ configuration: FeedClient.Configuration) async throws -> Int {
            let list = try await FeedClient.withFeedClient(configuration) { client in
                try await client.infinite.loadMore()
                titles = await client.infinite.posts.map(\.title)
                return NSMutableArray(array: titles)  // not Sendable: fine in the caller's isolation
            }
            return list.count
        }
    }

    @Test("withFeedClient runs its body in the caller's isolation")
    func scopedClientInAnActor() async throws {
        let root = FeedTestSupport.temporaryDirectory("isolation")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let reader = Reader()
            let count = try await reader.read(FeedTestSupport.configuration(server: server, cacheRoot: root))
            #expect(count == 10)
            #expect(await reader.titles.count == 10)
        }
    }
}
