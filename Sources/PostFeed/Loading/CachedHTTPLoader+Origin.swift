import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP

/// The transfer: one request to the origin, its `304` or `2xx` stored, its failure
/// answered from the cache when it can be.
extension CachedHTTPLoader {
    // MARK: The transfer

    struct Response {
        var requestURL: URL
        var url: URL
        var status: Int
        var headers: HTTPHeaders
        var body: ResponseBody
        var metrics: HTTPMetrics

        func readBody() throws -> Data {
            switch body {
            case .data(let data): return data
            case .download(let folder, let name): return try folder.read(name)
            }
        }

        /// Removes the downloaded file unless a cache adopted it (by name, through its folder).
        func discard() {
            if case .download(let folder, let name) = body { folder.remove(name) }
        }
    }

    /// Fetches from the origin (the network), revalidating `entry` when there is one.
    func fetchFromOrigin(
        _ request: Request, policy: CachePolicy, entry: DiskCacheEntry?, in cache: some ResponseCache, generation: String?,
        flightKey: String, validate: Validator?
    ) async -> Result<Outcome, Failure> {
        var http = request.http
        if let entry { http.addValidators(etag: entry.metadata.etag, lastModified: entry.metadata.lastModified) }
        let response: Response
        telemetry.metrics.fetchedFromOrigin(request.kind)
        do {
            response = try await send(http, downloads: request.downloads)
            telemetry.metrics.originRequestEnded(request.kind, cancelled: false)
            telemetry.metrics.originAnswered(request.kind, status: response.status, attempts: response.metrics.attempt)
            LoadRecorder.current?.record { trail in
                trail.layer = .network
                trail.attempts = response.metrics.attempt
                trail.status = response.status
            }
        } catch {
            telemetry.metrics.originRequestEnded(request.kind, cancelled: error.code == .cancelled)
            if error.code == .cancelled || Task.isCancelled { return .failure(.cancelled(error)) }
            if let entry {
                logger.debug("network failed, serving the cached copy", metadata: metadata(http.url, ["error": "\(error)"]))
                return .success(.cached(entry, revalidated: false, stale: "the network failed (\(error.code))"))
            }
            return .failure(.network(error))
        }
        // The downloaded file goes when this returns, unless a store behind the load owns it.
        var fileOwnedBehind = false
        defer { if !fileOwnedBehind { response.discard() } }
        let now = now()

        if response.status == 304 {
            guard let entry else { return .failure(.unaskedNotModified) }
            let refreshed = Self.revalidated(entry, by: response.headers, now: now, defaultLifetime: request.defaultLifetime)
            await cache.refresh(forKey: request.key, revalidated: entry.metadata, to: refreshed.metadata)
            markFetched(flightKey)
            return .success(.cached(refreshed, revalidated: true, stale: nil))
        }
        guard (200..<300).contains(response.status) else {
            if let entry, response.status >= 500 || response.status == 429 {
                LoadRecorder.current?.record { $0.layer = nil }  // the stale copy answers (see `load`)
                logger.debug("server error, serving the cached copy", metadata: metadata(http.url, ["status": "\(response.status)"]))
                return .success(.cached(entry, revalidated: false, stale: "the server failed (HTTP \(response.status))"))
            }
            let body = (try? response.readBody()) ?? Data()
            return .success(.status(HTTPResponse(
                requestURL: response.requestURL, url: response.url, status: response.status, headers: response.headers,
                body: body, metrics: response.metrics)))
        }

        let body: Data
        do {
            body = try response.readBody()
        } catch {
            return .failure(.unreadableBody("cannot read the downloaded body: \(error)"))
        }
        let freshness = HTTPFreshness(headers: response.headers, now: now, defaultLifetime: request.defaultLifetime)
        let accepted: Accepted?
        if let validate {
            guard let verdict = validate(body, response.headers) else {
                return .success(.fetched(Fetched(
                    body: body, headers: response.headers, accepted: nil, stored: false, expiresAt: freshness.expiresAt)))
            }
            accepted = verdict
        } else {
            accepted = nil
        }
        var stored = false
        var storedMetadata: CacheEntryMetadata?
        if freshness.isStorable {
            var attributes = request.attributes.merging(accepted?.attributes ?? [:]) { _, new in new }
            for name in request.keptHeaders + Self.freshnessHeaders {
                let values = response.headers.values(for: name)
                if !values.isEmpty { attributes[PageCacheStore.headerPrefix + name.lowercased()] = values.joined(separator: ", ") }
            }
            let metadata = CacheEntryMetadata(
                key: request.key, url: URLUserInfo.removed(from: http.url.absoluteString), etag: freshness.etag, lastModified: freshness.lastModified,
                contentType: response.headers["Content-Type"] ?? accepted?.contentType, expiresAt: freshness.expiresAt,
                storedAt: now, attributes: attributes)
            if request.storesBehind, cache.shared == nil {
                // Behind the load that returned it: a page of images is shown without
                // waiting for its bodies to pass the cache's write queue one by one. The
                // downloaded file is that store's to adopt or remove.
                fileOwnedBehind = true
                runBehind { [self] in
                    defer { response.discard() }
                    _ = await store(response, metadata: metadata, request: request, in: cache, generation: generation, flightKey: flightKey)
                }
                return .success(.fetched(Fetched(
                    body: body, headers: response.headers, accepted: accepted, stored: false, expiresAt: freshness.expiresAt)))
            }
            stored = await store(response, metadata: metadata, request: request, in: cache, generation: generation, flightKey: flightKey)
            if stored { storedMetadata = metadata }
        }
        return .success(.fetched(Fetched(
            body: body, headers: response.headers, accepted: accepted, stored: stored, expiresAt: freshness.expiresAt,
            metadata: storedMetadata)))
    }

    /// Stores `response` in `cache` and marks the fetch; whether it was stored (a failed
    /// write is reported by the cache, never thrown).
    private func store(
        _ response: Response, metadata: CacheEntryMetadata, request: Request, in cache: some ResponseCache, generation: String?,
        flightKey: String
    ) async -> Bool {
        do {
            try await cache.store(response.body, metadata: metadata, forKey: request.key, generation: generation)
            markFetched(flightKey)
            if let size = cache.recordedTotalBytes() { telemetry.metrics.diskSize(request.kind, bytes: size) }
            return true
        } catch {
            cache.writeFailed(error, key: request.key)
            return false
        }
    }

    private func send(_ request: HTTPRequest, downloads: DownloadsLocation?) async throws(HTTPClientError) -> Response {
        if let downloads {
            let folder: DownloadFolder
            do throws(DownloadDestinationError) {
                folder = try downloads.open()
            } catch {
                throw HTTPClientError(.fileSystem, url: request.url, detail: error.description)
            }
            let download = try await http.download(request, to: FolderDownloadDestination(folder: folder))
            return Response(
                requestURL: download.requestURL, url: download.url, status: download.status, headers: download.headers,
                body: .download(folder, name: download.fileName), metrics: download.metrics)
        }
        let response = try await http.execute(request)
        return Response(
            requestURL: response.requestURL, url: response.url, status: response.status, headers: response.headers,
            body: .data(response.body), metrics: response.metrics)
    }

    func metadata(_ url: URL, _ extra: Logger.Metadata) -> Logger.Metadata {
        extra.merging(["url": "\(URLUserInfo.removed(from: url.absoluteString))"]) { old, _ in old }
    }
}
