import Foundation
import PostFeedHTTP

extension InfiniteFeed {
    /// Loads the next page, joining the load in flight if there is one. Returns the number
    /// of posts added (0 at the end). With ``Configuration/unseenOnly`` pages that hold only
    /// hidden posts are skipped.
    ///
    /// A cancelled caller gets `.cancelled` at once; the load itself stops when every caller
    /// waiting for it has been cancelled, and then adds nothing. A caller more urgent than
    /// the load in flight (`.high` joining the background catalog load's `.low`) has it
    /// started again at its priority, so the reader's screen never waits behind prefetches.
    @discardableResult
    public func loadMore(priority: HTTPPriority = .high) async throws(RepositoryError) -> Int {
        guard loadFlight != nil || hasMore else { return 0 }
        let waiter = UUID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: LoadFlight.Waiter) in
                joinLoad(priority: priority, waiter: waiter, continuation: continuation)
            }
        } onCancel: {
            Task { await self.leaveLoad(waiter: waiter) }
        }
        return try result.get()
    }

    struct LoadFlight {
        typealias Waiter = CheckedContinuation<Result<Int, RepositoryError>, Never>
        let id: UUID
        let priority: HTTPPriority
        let task: Task<Void, Never>
        var waiters: [UUID: Waiter] = [:]
    }

    private func joinLoad(priority: HTTPPriority, waiter: UUID, continuation: LoadFlight.Waiter) {
        if Task.isCancelled {
            continuation.resume(returning: .failure(Self.cancelled(page: nextKey)))
            return
        }
        if let flight = loadFlight, priority > flight.priority {
            // A more urgent caller (the reader's screen) joins a background load, whose
            // request may wait behind prefetches: load again at this priority, with every
            // waiter moved over. The old load is cancelled, and adds nothing if its page
            // still lands (the page cache keeps it for the new one).
            flight.task.cancel()
            var replacement = startLoad(priority: priority)
            replacement.waiters = flight.waiters
            loadFlight = replacement
        }
        if loadFlight == nil {
            guard hasMore else {
                continuation.resume(returning: .success(0))
                return
            }
            loadFlight = startLoad(priority: priority)
        }
        loadFlight?.waiters[waiter] = continuation
    }

    private func startLoad(priority: HTTPPriority) -> LoadFlight {
        let id = UUID()
        let task = Task {
            let result: Result<Int, RepositoryError>
            do throws(RepositoryError) {
                result = .success(try await self.performLoadMore(priority: priority))
            } catch {
                result = .failure(error)
            }
            self.completeLoad(id: id, result: result)
        }
        return LoadFlight(id: id, priority: priority, task: task)
    }

    private func leaveLoad(waiter: UUID) {
        guard var flight = loadFlight, let continuation = flight.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(Self.cancelled(page: nextKey)))
        if flight.waiters.isEmpty {
            // The last caller left: stop the load; the next caller starts anew.
            flight.task.cancel()
            loadFlight = nil
        } else {
            loadFlight = flight
        }
    }

    private func completeLoad(id: UUID, result: Result<Int, RepositoryError>) {
        guard let flight = loadFlight, flight.id == id else { return }
        loadFlight = nil
        for continuation in flight.waiters.values { continuation.resume(returning: result) }
    }

    static func cancelled(page: PageKey?) -> RepositoryError {
        RepositoryError(.cancelled, url: nil, page: page, message: "loading the next page was cancelled")
    }
}
