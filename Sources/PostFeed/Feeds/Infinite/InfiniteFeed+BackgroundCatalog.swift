import Logging
import PostFeedHTTP

extension InfiniteFeed {
    /// The most posts a walk of the whole catalog loads: the background catalog load and
    /// ``FeedClient/popularityOrder(maximumPosts:progress:)`` (`list --sort popularity`)
    /// stop there when the feed goes on (a backend that never says it ended), so neither
    /// holds an unbounded list, nor leaves a place too long to save.
    public static let maximumCatalogPosts = 100_000

    /// Loads the remaining pages silently, `batchSize` at a time at low priority. Stops at
    /// the end, on cancellation, on the first error (kept in ``backgroundError``) without
    /// disturbing what is loaded, or once the feed holds `maximumPosts` posts
    /// (``backgroundCatalogCappedAt`` says so; the reader may still scroll on).
    public func startBackgroundCatalogLoad(batchSize: Int = 3, maximumPosts: Int = InfiniteFeed.maximumCatalogPosts) {
        guard backgroundTask == nil, hasMore else { return }
        guard count < maximumPosts else {
            backgroundCatalogCappedAt = count
            return
        }
        backgroundError = nil
        backgroundCatalogCappedAt = nil
        backgroundTask = Task {
            await self.runBackgroundLoad(batchSize: max(1, batchSize), maximumPosts: maximumPosts)
        }
    }

    /// Stops the background catalog load; the pages it loaded stay.
    public func cancelBackgroundCatalogLoad() {
        backgroundTask?.cancel()
        backgroundTask = nil
    }

    /// Waits for the background catalog load to end (for tests and the CLI's exit).
    public func waitForBackgroundCatalogLoad() async {
        await backgroundTask?.value
    }

    /// Stops every background activity (prefetches, catalog load).
    public func cancelBackgroundWork() async {
        cancelBackgroundCatalogLoad()
        pagePrefetch?.task.cancel()
        pagePrefetch = nil
        await images?.cancelPrefetching()
    }

    private func runBackgroundLoad(batchSize: Int, maximumPosts: Int) async {
        defer { backgroundTask = nil }
        while hasMore, !Task.isCancelled {
            for _ in 0..<batchSize where hasMore && !Task.isCancelled {
                if count >= maximumPosts {
                    backgroundCatalogCappedAt = count
                    logger.info("background catalog load stopped at the limit", metadata: ["posts": "\(count)"])
                    return
                }
                do {
                    _ = try await loadMore(priority: .low)
                } catch where error.code == .cancelled {
                    return
                } catch {
                    backgroundError = error
                    logger.info("background catalog load stopped", metadata: ["error": "\(error)"])
                    return
                }
            }
            await Task.yield()
        }
    }
}
