import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

/// `list --sort popularity`: the whole feed, most popular first.
///
/// The catalog (every page of the feed) is loaded first, through the page cache, with a
/// progress line on stderr when it is a terminal; then the posts are ordered by popularity
/// (highest first; equal ones, and posts without one, in the backend's order) and the next
/// `--pages` × page-size posts of that order not printed by an earlier run are printed.
/// Numbers stay the backend's positions (`#42` is the 42nd post the backend lists).
/// What was printed is kept in the library's ``PopularityOrderState`` (and counts as seen);
/// the reader's place is not touched.
struct PopularityListing {
    let client: FeedClient
    let pages: Int
    let restart: Bool
    let json: Bool
    let fetchImages: Bool
    let imageWait: Duration

    /// One post of the order: the post and its 0-based position in the backend's list.
    typealias Ranked = FeedClient.PopularityOrder.Entry

    func run() async throws {
        var notices: [String] = []
        var place = PopularityOrderState(backendIdentity: client.backend.identity)
        if !restart {
            let load = client.loadPopularityOrder()
            place = load.state
            if let problem = load.problem { notices.append(Self.describe(problem)) }
        }
        notices.forEach { Terminal.note("postfeed: \($0)") }
        // The catalog starts from the top (the library's popularity order restarts the
        // infinite feed); posts seen in earlier runs stay known for --unseen.
        let (catalog, signal) = await Interruption.run { [client] in await Self.loadCatalog(client) }
        Terminal.endProgress()
        if let signal {
            Terminal.note("postfeed: interrupted by \(Interruption.name(of: signal)) while loading the catalog; nothing printed, nothing saved")
            throw ExitCode(Interruption.exitStatus(for: signal))
        }
        let ranked: [Ranked]
        let restartNotices: [String]
        switch catalog {
        case .failure(let error): throw error
        case .success(let order):
            ranked = order.entries
            restartNotices = order.notices
        }
        var scoreNotices: [String] = []
        if !ranked.isEmpty, ranked.allSatisfy({ $0.post.popularity == nil }) {
            // Feeds carry no score: the order would silently be the backend's own.
            let line = "no post of this backend has a popularity score (\(client.backend.pageFormat == .feed ? "feeds carry none" : "its posts name none")), so this is the backend's own order"
            scoreNotices.append(line)
            if !json { Terminal.note("postfeed: \(line)") }
        }
        let shown = Set(place.shownPostIDs)
        let remaining = ranked.filter { !shown.contains($0.post.id) }
        let pageSize = client.configuration.pageSize
        let (wanted, overflow) = pages.multipliedReportingOverflow(by: pageSize)
        let take = Array(remaining.prefix(overflow ? Int.max : wanted))
        let firstRank = ranked.count - remaining.count + 1
        let loads = ImageLoads(client: client, wait: imageWait)
        defer { loads.cancel() }
        if json {
            let lines = await lines(for: take, loads: loads)
            try JSONOutput.print(ListOutput(
                mode: "infinite", order: "popularity", firstRank: firstRank, posts: lines, loaded: ranked.count,
                totalCount: await client.infinite.totalCount, endReached: take.count == remaining.count,
                stale: await client.infinite.isShowingStaleContent, notices: notices + restartNotices + scoreNotices))
            place.shownPostIDs += take.map(\.post.id)
            if !take.isEmpty { place = try client.savePopularityOrder(place) }
        } else {
            guard !take.isEmpty else {
                print("\(ranked.count == 1 ? "The 1 post was" : "All \(ranked.count) posts were") printed by popularity; "
                      + "'postfeed list --sort popularity --restart' starts over.")
                return
            }
            print("Most popular first: \(firstRank)–\(firstRank + take.count - 1) of \(ranked.count) "
                  + "(numbers are positions in the backend's list)")
            // Page by page, the printed posts saved after each, never ahead of what was shown.
            var start = 0
            while start < take.count {
                let chunk = Array(take[start..<min(take.count, start + pageSize)])
                let width = PostRenderer.titleWidth
                let text = await lines(for: chunk, loads: loads).map { PostRenderer.listEntry($0, width: width) + "\n" }.joined()
                try StandardStream.output.write(text)
                place.shownPostIDs += chunk.map(\.post.id)
                place = try client.savePopularityOrder(place)
                start += chunk.count
            }
            let printed = firstRank + take.count - 1
            print(printed >= ranked.count
                  ? "— end of the popularity order (\(counted(ranked.count, "post"))) —"
                  : "— \(printed) of \(ranked.count) posts by popularity; 'postfeed list --sort popularity' continues —")
        }
        if await client.infinite.isShowingStaleContent, let reason = await client.infinite.staleReason {
            Terminal.note("postfeed: \(reason); some pages come from the cache and may be out of date")
        }
        try await finishImages(loads)
        try await finishPrefetching(client)
    }

    /// One line on a popularity order file that could not be used.
    static func describe(_ problem: (problem: PopularityOrderState.Problem, file: URL, keptAs: URL?)) -> String {
        let what: String
        switch problem.problem {
        case .link(let message): return "\(message); starting the popularity order from the top"
        case .unreadable(let why): what = "is not a readable popularity order (\(why))"
        case .version(let version): what = "is version \(version), not \(PopularityOrderState.currentVersion)"
        case .otherBackend(let identity): what = "was saved for backend \(identity), not this one"
        }
        return "\(problem.file.path) \(what); starting the popularity order from the top"
            + (problem.keptAs.map { " (the file is kept as \($0.lastPathComponent))" } ?? "")
    }

    /// Lines for `posts`, with the images that arrive within the image wait.
    private func lines(for posts: [Ranked], loads: ImageLoads) async -> [PostLine] {
        var summaries = [ImageSummary?](repeating: nil, count: posts.count)
        if fetchImages {
            summaries = await loads.images(for: posts.map(\.post)).map(\.summary)
        }
        return zip(posts, summaries).map { ranked, image in
            PostLine(position: PlaceConverter.saturatingAdd(ranked.position, 1), post: ranked.post, image: image)
        }
    }

    /// The library's popularity order of the whole feed (``FeedClient/popularityOrder(progress:)``),
    /// with a progress line on a terminal. A failure after the first page ends the catalog
    /// there (the order covers what loaded, and a note says so); a failure before any post
    /// is the result.
    static func loadCatalog(_ client: FeedClient) async -> Result<FeedClient.PopularityOrder, any Error> {
        do {
            let order = try await client.popularityOrder { loaded, total in
                Terminal.progress("loading the catalog for --sort popularity: \(loaded)\(total.map { " of \($0)" } ?? "") posts…")
            }
            order.notices.forEach { Terminal.note("postfeed: \($0)") }
            if let capped = order.cappedAt {
                Terminal.endProgress()
                Terminal.note("postfeed: the feed goes on past \(capped) posts without saying where it ends; the order covers the first \(capped)")
            }
            if let error = order.stoppedEarly {
                Terminal.endProgress()
                Terminal.note("postfeed: the catalog stopped loading after post \(order.entries.count): \(error); the order covers the posts loaded")
            }
            return .success(order)
        } catch {
            return .failure(error)
        }
    }
}
