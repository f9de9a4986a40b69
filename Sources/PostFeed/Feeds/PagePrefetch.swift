import Foundation
import Logging
import PostFeedHTTP

/// A page being warmed in the page cache, so that a later load of the same key can wait
/// for it instead of fetching the page a second time.
///
/// At `.normal` priority: behind what is on screen (`.high`), ahead of image prefetches
/// (`.low`). The load that will wait for it is the reader's next screen, and a page is a
/// few kilobytes; queued behind a backlog of image prefetches it would hold that load
/// back (a priority inversion).
struct PagePrefetch: Sendable {
    let key: PageKey
    let task: Task<Void, Never>

    /// Starts warming page `key`; with `images`, the images of the page's first
    /// `imageLimit` posts follow it at low priority, so the next screen needs no request at all.
    /// `cachePolicy` ``CachePolicy/cacheElseLoad`` warms only a page the cache lacks (a feed
    /// that serves expired pages revalidates them once shown).
    init(
        key: PageKey, repository: any PostRepository, images: ImagePipeline? = nil, imageLimit: Int = .max,
        cachePolicy: CachePolicy = .useCache, logger: Logger
    ) {
        self.key = key
        self.task = Task {
            do {
                let page = try await repository.page(key, cachePolicy: cachePolicy, priority: .normal)
                if let images, !Task.isCancelled {
                    await images.prefetch(page.posts.prefix(max(0, imageLimit)).compactMap { repository.backend.imageURL(for: $0) })
                }
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
