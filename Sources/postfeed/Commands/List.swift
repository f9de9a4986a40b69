import ArgumentParser
import Foundation
import PostFeed

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the next pages of the infinite feed, continuing where the last run stopped.",
        discussion: """
            Each run appends pages after what was already loaded and saves the place in
            Cache/State/infinite-scroll-state.json. Images of the printed posts are fetched
            into the memory and disk caches. Ctrl-C (or SIGTERM) stops the loading: the
            posts already loaded are printed and the place is saved after them.

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
            // would continue after posts this one never showed). SIGINT/SIGTERM end it the
            // same way (see `Interruption`).
            let pages = pages
            let (failure, interruption) = await Interruption.run { () -> (any Error)? in
                for page in 1...pages {
                    if Task.isCancelled { return nil }
                    Terminal.progress("loading page \(page) of \(pages)…")
                    do {
                        guard try await feed.loadMore() > 0 else { return nil }
                        // Saved after every page; the write is atomic, so a kill never tears it.
                        try await client.saveInfinite(anchorIndex: start)
                    } catch {
                        return error
                    }
                }
                return nil
            }
            Terminal.endProgress()
            // A load cut short by the signal is not a failure: the pages before it stand.
            let failureToReport = interruption == nil ? failure : nil
            if let failureToReport, await feed.count == start { throw failureToReport }
            let posts = try await feed.posts(in: start..<(await feed.count))
            let fetchImages = !noImages && interruption == nil
            let images = fetchImages ? await client.images(for: posts) : Array(repeating: nil, count: posts.count)
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
            } else {
                for line in lines { print(PostRenderer.listEntry(line)) }
                if stale { Terminal.note("postfeed: the network failed; some pages come from the cache and may be out of date") }
            }
            if let interruption {
                Terminal.note(
                    "postfeed: interrupted by \(Interruption.name(of: interruption)) after \(posts.count) new posts; "
                        + "the place is saved, and 'postfeed list' continues after post \(start + posts.count)")
                throw ExitCode(Interruption.exitStatus(for: interruption))
            }
            if let failureToReport { throw failureToReport }
            if json { return }
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
