import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// swift-server's AsyncHTTPClient on its singleton event loop group, with a connection
/// pool as wide as the concurrency.
enum AsyncHTTPClientFetch {
    static func run(urls: [String], concurrency: Int) async throws -> Tally {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let tally = await fetchWindowed(count: urls.count, concurrency: concurrency) { index in
            do {
                let response = try await client.execute(HTTPClientRequest(url: urls[index]), timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
                return response.status == .ok ? body.readableBytes : nil
            } catch {
                return nil
            }
        }
        try await client.shutdown()
        return tally
    }
}
