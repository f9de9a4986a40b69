import Foundation
@testable import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Synchronization
import Testing

/// The seams DESIGN.md promises: the pipeline takes any `HTTPLoading` and any
/// `DataCaching`, and both can be written outside the package with its public API only.
@Suite("ImagePipeline over other HTTPLoading and DataCaching implementations")
struct ImagePipelineInjectionTests {
    /// Loads through `HTTPClient` but writes download bodies itself, as a transport that
    /// cannot stream to files would; counts what it was asked.
    final class BufferingLoader: HTTPLoading {
        let client: HTTPClient
        let downloads = Mutex(0)

        init(_ client: HTTPClient) { self.client = client }

        func execute(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
            try await client.execute(request)
        }

        func download(_ request: HTTPRequest, into directory: URL) async throws(HTTPClientError) -> HTTPDownload {
            downloads.withLock { $0 += 1 }
            let response = try await client.execute(request)
            let file = directory.appendingPathComponent(UUID().uuidString)
            do {
                try response.body.write(to: file)
            } catch {
                throw HTTPClientError(.fileSystem, url: request.url, detail: "cannot write \(file.path): \(error)")
            }
            return HTTPDownload(
                requestURL: response.requestURL, url: response.url, status: response.status, headers: response.headers,
                fileURL: file, byteCount: response.body.count, metrics: response.metrics)
        }

        /// The pipeline streams into a destination the cache made: one file there, written
        /// through the descriptor it hands out.
        func download(_ request: HTTPRequest, to destination: any DownloadDestination) async throws(HTTPClientError) -> HTTPDownload {
            downloads.withLock { $0 += 1 }
            let response = try await client.execute(request)
            let file: DownloadFile
            do throws(DownloadDestinationError) {
                file = try destination.makeFile()
            } catch {
                throw HTTPClientError(.fileSystem, url: request.url, detail: error.description)
            }
            let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
            do {
                try handle.write(contentsOf: response.body)
                try handle.close()
            } catch {
                destination.removeFile(file)
                throw HTTPClientError(.fileSystem, url: request.url, detail: "cannot write \(file.path): \(error)")
            }
            return HTTPDownload(
                requestURL: response.requestURL, url: response.url, status: response.status, headers: response.headers,
                fileURL: URL(fileURLWithPath: file.path), byteCount: response.body.count, metrics: response.metrics)
        }
    }

    /// Entries in a dictionary: a cache for a service that keeps nothing on disk.
    final class DictionaryCache: DataCaching {
        private let entries = Mutex<[String: DiskCacheEntry]>([:])
        /// Its own write queue, as the `DataCaching` contract asks.
        let writeQueue = CacheWriteQueue(label: "dictionary-cache.writes")
        /// For each store, whether it ran on this cache's write queue.
        let storesOnWriteQueue = Mutex<[Bool]>([])

        var count: Int { entries.withLock { $0.count } }

        func entry(forKey key: String) -> DiskCacheEntry? { entries.withLock { $0[key] } }

        func store(_ data: Data, metadata: CacheEntryMetadata, forKey key: String) throws {
            storesOnWriteQueue.withLock { $0.append(writeQueue.isCurrent) }
            entries.withLock { $0[key] = DiskCacheEntry(data: data, metadata: metadata) }
        }

        func storeFile(at temporaryFile: URL, metadata: CacheEntryMetadata, forKey key: String) throws {
            defer { try? FileManager.default.removeItem(at: temporaryFile) }
            try store(Data(contentsOf: temporaryFile), metadata: metadata, forKey: key)
        }

        func updateMetadata(forKey key: String, _ update: (inout CacheEntryMetadata) -> Void) throws {
            entries.withLock { entries in
                guard var entry = entries[key] else { return }
                update(&entry.metadata)
                entries[key] = entry
            }
        }

        func removeEntry(forKey key: String) { entries.withLock { _ = $0.removeValue(forKey: key) } }

        func removeAll() throws { entries.withLock { $0.removeAll() } }

        func performWrite<T: Sendable, E: Error>(_ write: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
            try await writeQueue.run(write)
        }

        func flush() async { await writeQueue.flush() }
    }

    @Test("Downloads go through the injected loader into the injected cache; a new pipeline hits that cache")
    func injectedLoaderAndCache() async throws {
        let folder = FeedTestSupport.temporaryDirectory("downloads")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await RunningFixtureServer.withRunning { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
                let loader = BufferingLoader(client)
                let cache = DictionaryCache()
                let url = ImagePipelineTests.imageURL(server, "img-003.png")

                // When
                let pipeline = ImagePipeline(loader: loader, disk: cache, downloadsFolder: folder)
                let first = try await pipeline.image(for: url)

                // Then: one download by the loader, stored in the cache, its file adopted
                #expect(first.source == .network)
                let downloads = loader.downloads.withLock { $0 }
                #expect(downloads == 1)
                #expect(cache.entry(forKey: first.cacheKey)?.data == first.data)
                // The write ran on the cache's own write queue, off Swift's cooperative pool.
                let storesOnWriteQueue = cache.storesOnWriteQueue.withLock { $0 }
                #expect(storesOnWriteQueue == [true])
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
                #expect(await pipeline.cachedFileURL(for: url) == nil, "this cache keeps no files")

                // When a new pipeline shares the cache: a hit there, no request
                let requests = server.requestCount(pathPrefix: "/images/")
                let second = try await ImagePipeline(loader: loader, disk: cache).image(for: url)
                #expect(second.source == .disk)
                #expect(second.data == first.data)
                #expect(server.requestCount(pathPrefix: "/images/") == requests)
            }
        }
    }

    @Test("The repository's page writes run on the cache's write queue too")
    func pageWritesLeaveThePool() async throws {
        try await RunningFixtureServer.withRunning { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
                let cache = DictionaryCache()
                let repository = try HTTPPostRepository(
                    backend: BackendDescription.preset("postfeed", baseURL: server.baseURL), loader: client, pageCache: cache)

                _ = try await repository.page(repository.firstPageKey, cachePolicy: .useCache, priority: .high)

                let onQueue = cache.storesOnWriteQueue.withLock { $0 }
                #expect(!onQueue.isEmpty)
                let allOnQueue = onQueue.allSatisfy { $0 }
                #expect(allOnQueue, "\(onQueue)")
            }
        }
    }
}
