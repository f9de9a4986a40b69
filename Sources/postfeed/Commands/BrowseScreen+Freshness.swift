import Foundation
import PostFeed

/// Fresher content: pages shown from the cache past their expiry are checked with the server
/// in the background, one at a time (the feed picks the page nearest the reader first), and
/// a page that changed is drawn again with the post on top kept. The feeds do the work
/// (`revalidateNextExpiredPage()`); this only starts it and redraws.
extension BrowseScreen {
    /// Checks the next expired page, unless a check runs already (a refresh cancels it, and
    /// starts over from the network anyway). Never for piped keys (their pages are
    /// revalidated before they are shown).
    func startRevalidation() {
        guard !piped, opened, running[.revalidate] == nil, running[.refresh] == nil, running[.open] == nil else { return }
        let (client, mode) = (client, mode)
        start(.revalidate, activity: "checking for newer posts…") { _ in
            let result: PageRevalidation?
            let remaining: Int
            switch mode {
            case .infinite:
                result = await client.infinite.revalidateNextExpiredPage()
                remaining = await client.infinite.expiredPageCount
            case .paged:
                result = await client.paged.revalidateNextExpiredPage()
                remaining = await client.paged.expiredPageCount
            }
            return { screen in screen.revalidated(result, remaining: remaining, mode: mode) }
        }
    }

    /// Applies what checking one page found: a changed page is drawn again with the post on
    /// top kept (its nearest neighbour when it is gone); a failure leaves the cached posts
    /// and says why on the status line. Then the next page, if any.
    private func revalidated(_ result: PageRevalidation?, remaining: Int, mode: ListMode) {
        guard mode == self.mode, let result else { return }
        switch result.outcome {
        case .unchanged:
            break
        case .replaced:
            say("updated \(result.pageName)")
            // The post on top, unless the reader moved since the last view was read.
            if shown.top == top { pendingPostID = shown.posts.first?.id }
            orderDirty = order != nil
            refreshView()
        case .failed(let reason):
            say("showing cached posts: \(result.pageName) could not be checked for newer ones (\(reason))")
        }
        if remaining > 0 { startRevalidation() }
    }
}
