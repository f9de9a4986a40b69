import Foundation
import PostFeedHTTP

/// PostFeed's client: one connection per concurrent request, no retries.
enum PostFeedFetch {
    static func configuration(concurrency: Int) -> HTTPClient.Configuration {
        HTTPClient.Configuration(
            maximumConnections: concurrency, maximumConnectionsPerHost: concurrency, retryPolicy: .never)
    }

    static func inMemory(urls: [String], concurrency: Int) async throws -> Tally {
        let urls = urls.compactMap(URL.init(string:))
        return try await HTTPClient.withHTTPClient(configuration: configuration(concurrency: concurrency)) { client in
            await fetchWindowed(count: urls.count, concurrency: concurrency) { index in
                guard let response = try? await client.get(urls[index]), response.status == 200 else { return nil }
                return response.body.count
            }
        }
    }

    /// Every request at once: the engine's queue and its connection cap do the pacing, so
    /// the next transfer starts on the engine thread without waiting for a Swift task.
    static func allQueued(urls: [String], configuration: HTTPClient.Configuration) async throws -> Tally {
        let urls = urls.compactMap(URL.init(string:))
        return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            await withTaskGroup(of: Int?.self) { group in
                for url in urls {
                    group.addTask {
                        guard let response = try? await client.get(url), response.status == 200 else { return nil }
                        return response.body.count
                    }
                }
                var tally = Tally()
                for await result in group { tally.add(result) }
                return tally
            }
        }
    }

    static func download(urls: [String], concurrency: Int, folder: URL) async throws -> Tally {
        let urls = urls.compactMap(URL.init(string:))
        return try await HTTPClient.withHTTPClient(configuration: configuration(concurrency: concurrency)) { client in
            await fetchWindowed(count: urls.count, concurrency: concurrency) { index in
                guard let download = try? await client.download(HTTPRequest(url: urls[index]), into: folder),
                    download.status == 200
                else { return nil }
                return download.byteCount
            }
        }
    }
}
