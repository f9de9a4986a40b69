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
    /// Where the prefetch waits for `after` (see ``init(key:repository:images:imageLimit:after:logger:)``).
    private let gate: PrefetchGate

    /// Starts warming page `key`; with `images`, the images of the page's first
    /// `imageLimit` posts follow it at low priority, so the next screen needs no request at all.
    /// `cachePolicy` ``CachePolicy/cacheElseLoad`` warms only a page the cache lacks (a feed
    /// that serves expired pages revalidates them once shown).
    ///
    /// With `after` (the images of the page on screen, loading), the prefetch starts once
    /// they have ended, after `atMost` (slow images must not keep the next page from being
    /// prefetched while the reader reads), or at once when a load wants the page
    /// (``startNow()``): the screen being shown comes first, and the next page's request, its
    /// decoding and its images' requests do not compete with the images it waits for
    /// (issue 16's cold `page 1`).
    init(
        key: PageKey, repository: any PostRepository, images: ImagePipeline? = nil, imageLimit: Int = .max,
        cachePolicy: CachePolicy = .useCache, after: (images: Task<Void, Never>, atMost: Duration, clock: any Clock<Duration>)? = nil,
        logger: Logger
    ) {
        self.key = key
        let gate = PrefetchGate()
        self.gate = gate
        if let after { gate.open(after: after.images, atMost: after.atMost, on: after.clock) } else { gate.open() }
        self.task = Task {
            await gate.wait()
            // Cancelled while waiting (the gate opens on cancellation): no lookup at all, so
            // nothing (a shared-tier GET, a disk write behind it) outlives finishTransfers().
            guard !Task.isCancelled else { return }
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

    /// Starts the prefetch now if it is still waiting: a load wants its page.
    func startNow() {
        gate.open()
    }

    /// Hands image URLs to the pipeline's low-priority prefetch.
    static func images(_ urls: [URL], into pipeline: ImagePipeline) {
        guard !urls.isEmpty else { return }
        Task { await pipeline.prefetch(urls) }
    }

    /// Prefetches image URLs at low priority; the task ends when each of them has ended.
    static func imagesToWaitFor(_ urls: [URL], into pipeline: ImagePipeline) -> Task<Void, Never> {
        Task { await pipeline.prefetchAndWait(urls) }
    }
}
