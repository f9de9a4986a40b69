import ArgumentParser
import Foundation
import PostFeed

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the next pages of the infinite feed, continuing where the last run stopped.",
        discussion: """
            Each run appends pages after what was already loaded and saves the place in
            Cache/State/infinite-scroll-state.json. Images of the printed posts are fetched
            into the memory and disk caches.

            Examples:
              postfeed list                      the next page
              postfeed list --pages 3 --json     three pages as JSON
              postfeed list --restart            from the top (the saved place is replaced)
              postfeed list --sort popularity --unseen
            """)

    @OptionGroup var backend: BackendOptions

    @Option(help: "List mode. Only 'infinite' lists; use 'postfeed page' for numbered pages.")
    var mode: String = "infinite"

    @Option(help: "How many pages to load and print.")
    var pages: Int = 1

    @Flag(help: "Start from the top instead of continuing.")
    var restart = false

    @Option(help: "Order within each page: backend (default) or popularity.")
    var sort: String = FeedOrdering.backend.rawValue

    @Flag(help: "Hide posts already shown in an earlier run.")
    var unseen = false

    @Flag(name: .customLong("no-images"), help: "Do not fetch images.")
    var noImages = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard mode == "infinite" || mode == "paged" else {
            throw ValidationError("--mode '\(mode)' is unknown; use 'infinite' or 'paged'.")
        }
        guard pages >= 1 else { throw ValidationError("--pages \(pages) must be at least 1.") }
        guard FeedOrdering(rawValue: sort) != nil else {
            throw ValidationError("--sort '\(sort)' is unknown; use \(FeedOrdering.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
    }

    func run() async throws {
        if mode == "paged" {
            // The numbered mode's equivalent: print pages from the current one on.
            var command = PageCommand()
            command.backend = backend
            command.count = pages
            command.json = json
            command.noImages = noImages
            return try await command.run()
        }
        let ordering = FeedOrdering(rawValue: sort) ?? .backend
        try await Session.run(backend, configure: {
            $0.infinite.ordering = ordering
            $0.infinite.unseenOnly = unseen
        }) { client in
            // --restart simply does not resume: the first page loaded replaces the saved place,
            // so a restart that fails before loading anything leaves the old place intact.
            let resumed = restart ? ResumeReport.fresh : try await client.resumeInfinite()
            resumed.notices.forEach { Terminal.note("postfeed: \($0)") }
            let feed = client.infinite
            let start = await feed.count
            // A page that fails after others loaded ends the loop: the pages loaded are saved
            // as read, so they are printed before the failure is reported (else the next run
            // would continue after posts this one never showed).
            var failure: (any Error)?
            for page in 1...pages {
                Terminal.progress("loading page \(page) of \(pages)…")
                do {
                    guard try await feed.loadMore() > 0 else { break }
                } catch {
                    failure = error
                    break
                }
                // Saved after every page: an interrupted run (Ctrl-C, SIGTERM) keeps the place
                // of the last page it loaded; the write is atomic, so a kill never tears it.
                try await client.saveInfinite(anchorIndex: start)
            }
            Terminal.endProgress()
            if let failure, await feed.count == start { throw failure }
            let posts = try await feed.posts(in: start..<(await feed.count))
            let images = noImages ? Array(repeating: nil, count: posts.count) : await client.images(for: posts)
            let lines = zip(posts, images).enumerated().map { offset, pair in
                PostLine(position: start + offset + 1, post: pair.0, image: pair.1.map(ImageSummary.init))
            }
            // The first newly printed post is what the reader looks at now.
            try await client.saveInfinite(anchorIndex: posts.isEmpty ? max(0, start - 1) : start)
            let hasMore = await feed.hasMore
            let total = await feed.totalCount
            let stale = await feed.isShowingStaleContent
            if json {
                try JSONOutput.print(ListOutput(
                    mode: "infinite", posts: lines, loaded: await feed.count, totalCount: total, endReached: !hasMore,
                    stale: stale, notices: resumed.notices))
                if let failure { throw failure }
                return
            }
            for line in lines { print(PostRenderer.listEntry(line)) }
            if stale { Terminal.note("postfeed: the network failed; some pages come from the cache and may be out of date") }
            if let failure { throw failure }
            let loaded = await feed.count
            if !hasMore {
                print(lines.isEmpty ? "End of the feed: all \(loaded) posts are loaded; 'postfeed list --restart' starts over." : "— end of the feed (\(loaded) posts) —")
            } else {
                print("— \(loaded)\(total.map { " of \($0)" } ?? "") posts loaded; 'postfeed list' continues —")
            }
        }
    }
}

/// `--json` output of `list` and `page`.
struct ListOutput: Encodable {
    var mode: String
    var page: Int? = nil
    var totalPages: Int? = nil
    var posts: [PostLine]
    var loaded: Int? = nil
    var totalCount: Int?
    var endReached: Bool
    var stale: Bool
    var notices: [String]
}

extension ImageSummary {
    init(_ image: PostImage) {
        if let response = image.response {
            self.init(url: image.url, response: response, path: image.fileURL)
        } else {
            self.init(url: image.url, error: image.error.map { "\($0.message)" } ?? "unavailable")
        }
    }
}
