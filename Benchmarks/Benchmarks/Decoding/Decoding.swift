import Benchmark
import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer

// Micro benchmarks of PostFeed's JSON parser and page decoding, through public API:
// `JSONValue.parse` (PostFeedModels) on Fixtures/posts.json (247 posts, 176 KB), the same
// bytes parsed and mapped to `Post`s by `HTTPPostRepository.page(_:cachePolicy:priority:)`
// over a loader that answers from memory, and Foundation's parsers beside them for scale.
//
//   swift package benchmark --target Decoding

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2),
        maxIterations: 10_000)

    // MARK: JSON parse: Fixtures/posts.json

    Benchmark("JSON parse: posts.json → [Post], PostFeed (HTTPPostRepository, json-server preset)", configuration: configuration) { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            do {
                let page = try await fixture.repository.page(fixture.repository.firstPageKey, cachePolicy: .reload, priority: .normal)
                blackHole(page.posts.count)
            } catch {
                benchmark.error("\(error)")
            }
        }
    } setup: {
        try await PostsFileFixture.make()
    } teardown: {
        Scratch.remove()
    }

    Benchmark("JSON parse: posts.json, PostFeed JSONValue.parse", configuration: configuration) { benchmark, body in
        for _ in benchmark.scaledIterations {
            blackHole(try? JSONValue.parse(body))
        }
    } setup: {
        try PostsFileFixture.body()
    }

    Benchmark("JSON parse: posts.json, Foundation JSONSerialization (for scale)", configuration: configuration) { benchmark, body in
        for _ in benchmark.scaledIterations {
            blackHole(try? JSONSerialization.jsonObject(with: body))
        }
    } setup: {
        try PostsFileFixture.body()
    }

    Benchmark("JSON parse: posts.json → [Post], Foundation JSONDecoder (for scale)", configuration: configuration) { benchmark, body in
        for _ in benchmark.scaledIterations {
            blackHole(try? JSONDecoder().decode([Post].self, from: body))
        }
    } setup: {
        try PostsFileFixture.body()
    }

    // MARK: Page decode: one page of 20 as the fixture server sends it

    Benchmark("Page decode: page of 20 from the network response (postfeed preset)", configuration: configuration) { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await fixture.repository.page(fixture.key, cachePolicy: .reload, priority: .normal).posts.count)
            } catch {
                benchmark.error("\(error)")
            }
        }
    } setup: {
        try await PageFixture.make(cacheable: false)
    } teardown: {
        Scratch.remove()
    }

    Benchmark("Page decode: page of 20 from the page cache (DiskCache hit + decode)", configuration: configuration) { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            do {
                blackHole(try await fixture.repository.page(fixture.key, cachePolicy: .cacheOnly, priority: .normal).posts.count)
            } catch {
                benchmark.error("\(error)")
            }
        }
    } setup: {
        try await PageFixture.make(cacheable: true)
    } teardown: {
        Scratch.remove()
    }
}

/// Why a fixture could not be set up.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// Answers every request with one canned response, from memory: no network in the timing.
struct CannedLoader: HTTPLoading {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    func execute(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        HTTPResponse(
            requestURL: request.url, url: request.url, status: status, headers: headers, body: body,
            metrics: HTTPMetrics(bytesReceived: body.count))
    }

    func download(_ request: HTTPRequest, into directory: URL) async throws(HTTPClientError) -> HTTPDownload {
        throw HTTPClientError(.unsupportedScheme, url: request.url, detail: "the benchmarks' canned loader answers in memory only")
    }
}

/// Scratch folders for the page caches, removed in teardown.
enum Scratch {
    static let parent = FileManager.default.temporaryDirectory
        .appendingPathComponent("postfeed-microbench-decoding-\(getpid())", isDirectory: true)

    static func folder(_ name: String) -> URL {
        let folder = parent.appendingPathComponent(name, isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        return folder
    }

    static func remove() {
        try? FileManager.default.removeItem(at: parent)
    }
}

/// Fixtures/posts.json served as one json-server page (items at the root), `no-store` so
/// nothing is written to the page cache while timing.
struct PostsFileFixture {
    let repository: HTTPPostRepository

    static func body() throws -> Data {
        let file = FixtureLocator.fixturesDirectory().appendingPathComponent("posts.json")
        do {
            return try Data(contentsOf: file)
        } catch {
            throw FixtureError(description: "cannot read \(file.path): \(error); set \(FixtureLocator.fixturesEnvironmentKey)")
        }
    }

    static func make() async throws -> PostsFileFixture {
        guard let baseURL = URL(string: "http://127.0.0.1:9") else { throw FixtureError(description: "bad base URL") }
        let backend = try BackendDescription.preset("json-server", baseURL: baseURL)
        let loader = CannedLoader(
            status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: try body())
        let repository = try HTTPPostRepository(
            backend: backend, pageSize: backend.maximumPageSize, loader: loader,
            pageCache: try DiskCache(directory: Scratch.folder("json")))
        // Once outside the timing: every post must decode.
        let page = try await repository.page(repository.firstPageKey, cachePolicy: .reload, priority: .normal)
        guard !page.posts.isEmpty else { throw FixtureError(description: "posts.json decoded to no posts") }
        return PostsFileFixture(repository: repository)
    }
}

/// Page 1 of 20 posts exactly as the fixture server sends it (body and headers, fetched
/// once in setup), answered from memory to a repository with the postfeed preset.
struct PageFixture {
    let repository: HTTPPostRepository
    let key: PageKey

    /// - Parameter cacheable: keep the server's `Cache-Control` (the page is stored, and
    ///   `.cacheOnly` reads it back) or answer `no-store` (nothing is written while timing).
    static func make(cacheable: Bool) async throws -> PageFixture {
        let server = try await RunningFixtureServer.startDetached(FixtureServerConfiguration())
        let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
        let pageSize = 20
        let key = backend.firstPageKey
        let response: HTTPResponse
        do {
            let url = try backend.pageURL(for: key, pageSize: pageSize)
            response = try await HTTPClient.withHTTPClient { client in try await client.get(url).requireSuccess() }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()

        var headers = HTTPHeaders(response.headers.fields.filter { cacheable || $0.name.lowercased() != "cache-control" })
        if !cacheable { headers.add(name: "Cache-Control", value: "no-store") }
        let loader = CannedLoader(status: response.status, headers: headers, body: response.body)
        let repository = try HTTPPostRepository(
            backend: backend, pageSize: pageSize, loader: loader,
            pageCache: try DiskCache(directory: Scratch.folder(cacheable ? "cached" : "network")))
        // Once outside the timing: the page decodes (and, when cacheable, is now cached).
        let page = try await repository.page(key, cachePolicy: .reload, priority: .normal)
        guard page.posts.count == pageSize else {
            throw FixtureError(description: "page 1 of \(server.baseURL.absoluteString) held \(page.posts.count) posts, expected \(pageSize)")
        }
        if cacheable {
            _ = try await repository.page(key, cachePolicy: .cacheOnly, priority: .normal)
        }
        return PageFixture(repository: repository, key: key)
    }
}
