import Foundation
import PostFeed
import PostFeedPreview

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

    /// What the feed holds now of the post the detail view shows, after its page (or
    /// another) was replaced.
    enum DetailCopy: Sendable {
        /// The feed's copy of the post (maybe the one shown).
        case found(Post)
        /// The post is in no loaded page any more: gone upstream.
        case gone
        /// Loaded, on a page out of memory: nothing to compare.
        case unknown
    }

    /// Draws the detail view again with the feed's copy of its post after a page was
    /// replaced, or says the post is gone upstream (its text stays).
    private func refreshDetail() {
        guard case .detail(let postID, _, _) = overlay else { return }
        let (client, mode) = (client, mode)
        start(.detailCopy) { _ in
            let copy: DetailCopy
            switch mode {
            case .infinite:
                let feed = client.infinite
                if let index = await feed.index(ofPostID: postID) {
                    copy = await feed.post(at: index).map(DetailCopy.found) ?? .unknown
                } else {
                    copy = .gone
                }
            case .paged:
                copy = await client.paged.posts.first { $0.id == postID }.map(DetailCopy.found) ?? .gone
            }
            return { screen in screen.showDetailCopy(copy, postID: postID) }
        }
    }

    private func showDetailCopy(_ copy: DetailCopy, postID: PostID) {
        guard case .detail(postID, _, _) = overlay else { return }
        switch copy {
        case .found(let post):
            detailNote = nil
            if post != detailPost { showDetailText(of: post) }
        case .gone:
            detailNote = "no longer on the server: this is the copy from before;"
            say("post \(postID) is no longer on the server: the detail view shows the copy from before")
        case .unknown:
            break
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
            refreshDetail()
        case .failed(let reason):
            say("showing cached posts: \(result.pageName) could not be checked for newer ones (\(reason))")
        }
        if remaining > 0 { startRevalidation() }
    }
}
