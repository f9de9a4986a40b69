import Foundation
import Logging
import PostFeedCache

/// Calls a service makes per request, with no reader and no place: page N, one post, a
/// post's image (whole, or streamed from its disk entry). Each throws one typed error and
/// takes, as AsyncHTTPClient's calls do, a `deadline:` (the call gives up then, its
/// transfer cancelled, with `.deadlineExceeded`) and a `logger:` (the call's own lines:
/// what was asked, where the answer came from, how long it took, or why it failed; the
/// engine's lines go to the client's logger).
///
/// ```swift
/// router.get("/feed") { request, _ in
///     let number = request.uri.queryParameters.get("page", as: Int.self) ?? 1
///     do throws(RepositoryError) {
///         let page = try await client.page(number, deadline: .now + .seconds(5), logger: request.logger)
///         return page.posts.map(\.title).joined(separator: "\n")
///     } catch where error.code == .pageOutOfRange {
///         throw HTTPError(.notFound)
///     }
/// }
/// ```
extension FeedClient {
    /// Page `number` (1 is the first) through the page cache (memory → disk → shared tier →
    /// network), revalidated when expired.
    /// - Throws: ``RepositoryError``: `.pageOutOfRange` for a number below 1 or past the end,
    ///   `.badConfiguration` when the backend cannot address pages by number (cursor
    ///   pagination: walk ``pages(from:cachePolicy:deadline:logger:)`` instead), `.deadlineExceeded`,
    ///   and the repository's own codes.
    public func page(
        _ number: Int, cachePolicy: PageCachePolicy = .useCache, priority: HTTPPriority = .normal,
        deadline: ContinuousClock.Instant? = nil, logger: Logger? = nil
    ) async throws(RepositoryError) -> Page {
        let logger = callLogger(logger, ["page": "\(number)"])
        guard number >= 1 else {
            throw RepositoryError(.pageOutOfRange, url: nil, page: nil, message: "page \(number) does not exist; pages start at 1")
        }
        guard let key = repository.pageKey(forPageNumber: number) else {
            throw RepositoryError(
                .badConfiguration, url: nil, page: nil,
                message: "the backend's pages cannot be addressed by number (cursor pagination); walk them from the first")
        }
        return try await calling("page \(number)", deadline: deadline, logger: logger, timedOut: { seconds in
            RepositoryError(.deadlineExceeded, url: nil, page: key, message: "page \(number) did not come within its deadline (\(seconds))")
        }) { [repository] () throws(RepositoryError) -> Page in
            try await repository.page(key, cachePolicy: cachePolicy, priority: priority)
        }
    }

    /// The post `id`, from the page cache when a cached page holds it, else from the backend.
    /// - Throws: ``RepositoryError``: `.notFound`, `.deadlineExceeded`, and the
    ///   repository's own codes.
    public func post(
        id: PostID, cachePolicy: PageCachePolicy = .useCache, deadline: ContinuousClock.Instant? = nil, logger: Logger? = nil
    ) async throws(RepositoryError) -> Post {
        let logger = callLogger(logger, ["post-id": "\(id)"])
        return try await calling("post \(id)", deadline: deadline, logger: logger, timedOut: { seconds in
            RepositoryError(.deadlineExceeded, url: nil, page: nil, message: "post \(id) did not come within its deadline (\(seconds))")
        }) { [repository] () throws(RepositoryError) -> Post in
            try await repository.post(id: id, cachePolicy: cachePolicy)
        }
    }

    /// The image of post `id`, through memory → disk → shared tier → network; the post
    /// itself as ``post(id:cachePolicy:deadline:logger:)`` finds it.
    /// - Throws: ``ImagePipelineError``: `.noImage` (the post has no image field),
    ///   `.noImageURL`, `.unsupportedURL`, `.deadlineExceeded`, the pipeline's own codes,
    ///   and `.network`/`.notCached` naming the post when the post itself cannot be had.
    public func image(
        forPostID id: PostID, priority: HTTPPriority = .high, deadline: ContinuousClock.Instant? = nil, logger: Logger? = nil
    ) async throws(ImagePipelineError) -> ImageResponse {
        let logger = callLogger(logger, ["post-id": "\(id)"])
        return try await calling("image of post \(id)", deadline: deadline, logger: logger, timedOut: { seconds in
            ImagePipelineError(.deadlineExceeded, url: nil, message: "the image of post \(id) did not come within its deadline (\(seconds))")
        }) { () throws(ImagePipelineError) -> ImageResponse in
            let post: Post
            do throws(RepositoryError) {
                post = try await self.repository.post(id: id, cachePolicy: .useCache)
            } catch {
                let code: ImagePipelineError.Code = switch error.code {
                case .cancelled: .cancelled
                case .notCached: .notCached
                case .notFound: .noImage
                default: .network
                }
                throw ImagePipelineError(code, url: nil, message: "post \(id): \(error.message)", underlying: error.underlying)
            }
            guard let found = await self.image(for: post, priority: priority) else {
                throw ImagePipelineError(.noImage, url: nil, message: "post \(id) has no image")
            }
            if let response = found.response { return response }
            throw found.error ?? ImagePipelineError(.noImage, url: found.url, message: "post \(id) has no image")
        }
    }

    /// The image of post `id` to send on without holding it whole: its bytes read from the
    /// image disk entry in chunks (``ImageBody``), after ``image(forPostID:priority:deadline:logger:)``
    /// made sure it is cached. When the disk layer holds no entry (it refused the write),
    /// the bytes in hand are the one chunk.
    /// - Throws: ``ImagePipelineError`` as ``image(forPostID:priority:deadline:logger:)``.
    public func imageBody(
        forPostID id: PostID, priority: HTTPPriority = .high, deadline: ContinuousClock.Instant? = nil, logger: Logger? = nil
    ) async throws(ImagePipelineError) -> ImageBody {
        let response = try await image(forPostID: id, priority: priority, deadline: deadline, logger: logger)
        if let entry = imageCache.body(forKey: response.cacheKey) {
            return ImageBody(url: response.url, contentType: response.info.format.mimeType, length: entry.length, source: .disk(entry))
        }
        return ImageBody(url: response.url, contentType: response.info.format.mimeType, length: response.data.count, source: .memory(response.data))
    }

    // MARK: Per-call deadline and logger

    /// `base` (the call's) or the client's logger, with the call's metadata.
    func callLogger(_ base: Logger?, _ metadata: Logger.Metadata) -> Logger {
        var logger = base ?? Self.logger(self.logger, for: "call")
        for (key, value) in metadata { logger[metadataKey: key] = value }
        return logger
    }

    /// Runs `body` until `deadline` (then cancels it and throws `timedOut`), logging its
    /// start, its end and its failure to `logger`.
    func calling<Value: Sendable, Failure: Error>(
        _ what: String, deadline: ContinuousClock.Instant?, logger: Logger,
        timedOut: @escaping @Sendable (Duration) -> Failure,
        _ body: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let clock = ContinuousClock()
        let started = clock.now
        logger.debug("\(what): asked")
        let result: Result<Value, Failure>
        if let deadline {
            result = await withTaskGroup(of: CallEvent<Value, Failure>.self) { group in
                group.addTask {
                    do throws(Failure) { return .answered(.success(try await body())) } catch { return .answered(.failure(error)) }
                }
                group.addTask {
                    do { try await Task.sleep(until: deadline, clock: clock) } catch { return .callerCancelled }
                    return .deadlinePassed
                }
                var outcome: Result<Value, Failure> = .failure(timedOut(deadline - started))
                // The caller's cancellation reaches the body too: wait for its answer then.
                while let event = await group.next() {
                    switch event {
                    case .answered(let answer): outcome = answer
                    case .deadlinePassed: break
                    case .callerCancelled: continue
                    }
                    break
                }
                group.cancelAll()
                return outcome
            }
        } else {
            do throws(Failure) { result = .success(try await body()) } catch { result = .failure(error) }
        }
        let elapsed = clock.now - started
        switch result {
        case .success(let value):
            logger.debug("\(what): answered in \(elapsed)")
            return value
        case .failure(let error):
            logger.info("\(what): failed after \(elapsed): \(error)")
            throw error
        }
    }
}

/// What ends a call with a deadline first.
enum CallEvent<Value: Sendable, Failure: Error>: Sendable {
    case answered(Result<Value, Failure>)
    case deadlinePassed
    case callerCancelled
}

/// An image's bytes to send on, chunk by chunk: from its disk entry when it has one, never
/// read whole into memory then (``FeedClient/imageBody(forPostID:priority:deadline:logger:)``).
///
/// ```swift
/// let body = try await client.imageBody(forPostID: id)
/// var headers = HTTPFields(); headers[.contentType] = body.contentType
/// for try await chunk in body { try await writer.write(ByteBuffer(data: chunk)) }
/// ```
public struct ImageBody: AsyncSequence, Sendable {
    public typealias Element = Data
    public typealias Failure = ImagePipelineError

    /// Where the bytes are read from.
    enum Source: Sendable {
        case disk(DiskCache.EntryBody)
        case memory(Data)
    }

    /// The image's URL.
    public let url: URL
    /// Its MIME type, from its bytes (`image/png`, …).
    public let contentType: String
    /// Its length in bytes.
    public let length: Int
    let source: Source

    public func makeAsyncIterator() -> Iterator { Iterator(url: url, source: source) }

    /// Whether the bytes come from the disk entry (`true`) or from memory.
    public var isStreamedFromDisk: Bool {
        if case .disk = source { return true }
        return false
    }

    /// The next chunk (64 KiB at most from disk).
    public struct Iterator: AsyncIteratorProtocol {
        let url: URL
        var source: Source?

        public mutating func next() async throws(ImagePipelineError) -> Data? {
            try step()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ImagePipelineError) -> Data? {
            try step()
        }

        /// Reads the next chunk (a file read: synchronous, 64 KiB at most).
        private mutating func step() throws(ImagePipelineError) -> Data? {
            switch source {
            case .disk(let body):
                do {
                    return try body.nextChunk()
                } catch {
                    source = nil
                    throw ImagePipelineError(.network, url: url, message: "its cached copy cannot be read: \(error)")
                }
            case .memory(let data):
                source = nil
                return data
            case nil:
                return nil
            }
        }

    }
}
