import Logging
import PostFeedHTTP

extension InfiniteFeed {
    /// Loads the remaining pages silently, `batchSize` at a time at low priority. Stops at
    /// the end, on cancellation, or on the first error (kept in ``backgroundError``) without
    /// disturbing what is loaded.
    public func startBackgroundCatalogLoad(batchSize: Int = 3) {
        guard backgroundTask == nil, hasMore else { return }
        backgroundError = nil
        backgroundTask = Task {
            await self.runBackgroundLoad(batchSize: max(1, batchSize))
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

    private func runBackgroundLoad(batchSize: Int) async {
        defer { backgroundTask = nil }
        while hasMore, !Task.isCancelled {
            for _ in 0..<batchSize where hasMore && !Task.isCancelled {
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
