import Foundation
import Logging
import PostFeedHTTP

/// A page being warmed in the page cache at low priority, so that a later load of the same
/// key can wait for it instead of fetching the page a second time.
struct PagePrefetch: Sendable {
    let key: PageKey
    let task: Task<Void, Never>

    init(key: PageKey, repository: any PostRepository, logger: Logger) {
        self.key = key
        self.task = Task {
            do {
                _ = try await repository.page(key, cachePolicy: .useCache, priority: .low)
            } catch {
                logger.debug("page prefetch failed", metadata: ["page": "\(key)", "error": "\(error)"])
            }
        }
    }

    /// Hands image URLs to the pipeline's low-priority prefetch.
    static func images(_ urls: [URL], into pipeline: ImagePipeline) {
        guard !urls.isEmpty else { return }
        Task { await pipeline.prefetch(urls) }
    }
}
