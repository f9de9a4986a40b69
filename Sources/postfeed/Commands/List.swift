import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the next pages of the infinite feed, continuing where the last run stopped.",
        discussion: """
            Each run appends pages after what was already loaded and saves the place in
            Cache/State/infinite-scroll-state.json: the top of the last page printed, so
            'postfeed mode paged' opens that page. Posts are numbered by their position in
            the backend's list, also with --unseen. Images of the printed posts are fetched
            into the memory and disk caches; a page waits for them at most --image-wait
            seconds (default 2), and images still loading then finish before postfeed exits.
            Ctrl-C (or SIGTERM) stops the loading: the posts already loaded are printed and
            the place is saved after them.

            Examples:
              postfeed list                      the next page
              postfeed list --pages 3 --json     three pages as JSON
              postfeed list --restart            from the top (the saved place is replaced)
              postfeed list --base-url https://blog.example/feed/
                                                 a feed (RSS, Atom or JSON Feed) by its URL
              postfeed list --sort popularity    the most popular posts of the whole feed;
                                                 the next run continues down that order
              postfeed list --sort popularity --unseen

            With --sort popularity the whole feed is loaded first (progress on a terminal),
            and its posts are printed most popular first, numbered by their position in the
            backend's list. The posts printed so far are kept in
            Cache/State/popularity-order-state.json, so the next run continues down the
            order (--restart starts it over); the reader's place is not moved.
            """)

    @OptionGroup var backend: BackendOptions

    @Option(
        help: "infinite (default), or paged: numbered pages from the current one, as 'postfeed page --count N' prints them.",
        completion: .list(ListMode.names), transform: { try ListMode.parse($0, option: "--mode") })
    var mode: ListMode = .infinite

    @Option(parsing: .unconditional, help: "How many pages to load and print.")
    var pages: Int = 1

    @Flag(help: "Start from the top instead of continuing.")
    var restart = false

    @Option(
        help: "backend (default), or popularity: the whole feed most popular first (the catalog is loaded first); the next run continues the order.",
        completion: .list(FeedOrdering.names), transform: { try FeedOrdering.parse($0, option: "--sort") })
    var sort: FeedOrdering = .backend

    @Flag(help: "Hide posts already shown in an earlier run.")
    var unseen = false

    @Flag(name: .customLong("no-images"), help: "Do not fetch images.")
    var noImages = false

    @OptionGroup var imageWait: ImageWaitOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// `list` takes no arguments; as the default command it also receives a mistyped
    /// command name (`postfeed lsit`), which deserves better than "Unexpected argument".
    @Argument(help: .hidden)
    var stray: [String] = []

    /// Whether the command line names `list` (`postfeed list …`) rather than reaching it as
    /// the default command (`postfeed lsit`).
    static var namedExplicitly: Bool {
        CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") } == "list"
    }

    func validate() throws {
        if let word = stray.first {
            let commands = PostFeedCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
            // `postfeed lsit`: a mistyped command. `postfeed list extra`: an argument `list` does not take.
            guard Self.namedExplicitly else {
                throw ValidationError("'\(word.terminalLine)' is not a postfeed command; use one of \(commands.joined(separator: ", ")) (postfeed --help).")
            }
            throw ValidationError("list takes no arguments, got '\(word.terminalLine)'; give options only (postfeed list --help).")
        }
        guard pages >= 1 else { throw ValidationError("--pages \(pages) must be at least 1.") }
        if sort == .popularity, mode == .paged {
            throw ValidationError("--sort popularity orders the whole infinite feed; it does not combine with --mode paged.")
        }
    }

    func run() async throws {
        if mode == .paged {
            // The numbered mode's equivalent: print pages from the current one on.
            // Parsed, not PageCommand(): an argument wrapper built by hand holds no value.
            var command = try PageCommand.parse([])
            command.backend = backend
            command.count = pages
            command.json = json
            command.noImages = noImages
            command.imageWait = imageWait
            return try await command.run()
        }
        let noImages = noImages
        if sort == .popularity {
            let (pages, restart, json, wait) = (pages, restart, json, imageWait.duration)
            return try await Session.run(backend, configure: {
                $0.infinite.unseenOnly = unseen
                // The catalog's pages are read, not shown: no image prefetch behind them.
                $0.infinite.imagePrefetchCount = 0
            }) { client in
                try await PopularityListing(
                    client: client, pages: pages, restart: restart, json: json, fetchImages: !noImages, imageWait: wait
                ).run()
            }
        }
        try await Session.run(backend, configure: {
            $0.infinite.unseenOnly = unseen
            // --no-images fetches none, also not in the background.
            if noImages { $0.infinite.imagePrefetchCount = 0 }
        }) { client in
            try await read(client)
        }
    }

    /// The infinite feed's run: resume, read the pages, print, save the place after them.
    private func read(_ client: FeedClient) async throws {
        let (json, noImages, pageCount) = (json, noImages, pages)
        // --restart simply does not resume: the first page loaded replaces the saved place,
        // so a restart that fails before loading anything leaves the old place intact.
        let resumed = restart ? await client.restartInfinite() : try await client.resumeInfinite()
        resumed.notices.forEach { Terminal.note("postfeed: \($0)") }
        let loads = ImageLoads(client: client, wait: imageWait.duration)
        // Images still loading finish after the text, unless the run ends otherwise.
        defer { loads.cancel() }
        let lines = ListLines(client: client, loads: loads, fetchImages: !noImages)
        // Text: each page is printed as soon as it is loaded (with its images), and the
        // library saves the place after it. JSON is one document, printed at the end, and
        // the place saved after it. SIGINT/SIGTERM cancel the reading (see `Interruption`).
        let printer: @Sendable (Range<Int>) async throws -> Void = { range in
            Terminal.endProgress()
            try await lines.printText(range)
        }
        let printPage = json ? nil : printer
        let showLoading: @Sendable (Int) -> Void = { Terminal.progress("loading page \($0) of \(pageCount)…") }
        let (reading, interruption) = await Interruption.run { () async -> InfiniteReading in
            await client.readInfinite(pages: pageCount, after: resumed, onLoading: showLoading, onPage: printPage)
        }
        Terminal.endProgress()
        reading.notices.forEach { Terminal.note("postfeed: \($0)") }
        // A load cut short by the signal is not a failure: the pages before it stand.
        let failureToReport = interruption == nil ? reading.failure : nil
        if let failureToReport, reading.end == reading.start { throw failureToReport }
        if json {
            let all = try await lines.make(reading.start..<reading.end, images: interruption == nil)
            try JSONOutput.print(ListOutput(
                mode: "infinite", posts: all, loaded: reading.end, totalCount: reading.totalCount,
                endReached: !reading.hasMore, stale: reading.isStale, notices: resumed.notices))
        } else {
            // Posts loaded but not printed yet (none unless the run was cut short).
            try await lines.printText(reading.delivered..<reading.end, images: interruption == nil)
            if let reason = reading.staleReason {
                Terminal.note("postfeed: \(reason); some pages come from the cache and may be out of date")
            }
        }
        // A restart that loaded nothing (cut short before its first page) keeps the old place.
        if !(restart && reading.end == reading.start) {
            try await client.savePlace(after: reading).forEach { Terminal.note("postfeed: \($0)") }
        }
        let end = reading.end
        if let interruption {
            Terminal.note(
                "postfeed: interrupted by \(Interruption.name(of: interruption)) after \(end - reading.start) new posts; "
                    + "the place is saved, and 'postfeed list' continues after post \(end)")
            throw ExitCode(Interruption.exitStatus(for: interruption))
        }
        if let failureToReport {
            try await finishImages(loads)
            try await finishPrefetching(client)
            throw failureToReport
        }
        if !json {
            // Counts are of the backend's list, hidden posts (--unseen) included: how far
            // the loaded posts reach, the same meaning run after run.
            var listed = await client.infinite.listedCount
            // Posts loaded but not shown yet (by a browse's catalog walk) are not counted.
            if reading.end > 0, reading.end < (await client.infinite.count),
               let last = await client.infinite.listPositions(in: (reading.end - 1)..<reading.end).first
            {
                listed = last + 1
            }
            if !reading.hasMore {
                if listed == 0 {
                    print("The feed is empty: the backend has no posts yet.")
                } else if end == 0 {
                    // Every post is hidden by --unseen: none is new, the feed is not empty.
                    print("All \(listed == 1 ? "1 post has" : "\(listed) posts have") been seen; "
                          + "'postfeed list --restart' without --unseen shows them again.")
                } else if end == reading.start {
                    print("End of the feed: \(listed == 1 ? "its 1 post is" : "all \(listed) posts are") loaded; "
                          + "'postfeed list --restart' starts over.")
                } else {
                    print("— end of the feed (\(counted(listed, "post"))) —")
                }
            } else {
                print("— \(listed)\(reading.totalCount.map { " of \($0)" } ?? "") posts loaded; 'postfeed list' continues —")
            }
        }
        try await finishImages(loads)
        // The next page and its images were prefetched behind the last one printed: they
        // land and are stored (the next `list` needs no request for them), none is cut off.
        try await finishPrefetching(client)
    }
}

/// Makes and prints `list`'s lines: posts of the infinite feed with their images.
private struct ListLines: Sendable {
    let client: FeedClient
    let loads: ImageLoads
    let fetchImages: Bool

    /// Lines for the posts at `range`, with the images that arrive within the image wait
    /// unless `images` is `false` or the task was cancelled (an interrupted run prints what
    /// it loaded, without waiting).
    func make(_ range: Range<Int>, images: Bool = true) async throws -> [PostLine] {
        let posts = try await client.infinite.posts(in: range)
        var summaries = [ImageSummary?](repeating: nil, count: posts.count)
        if fetchImages, images, !Task.isCancelled {
            let fetched = await loads.images(for: posts)
            if !Task.isCancelled { summaries = fetched.map(\.summary) }
        }
        // The backend's positions: posts hidden by --unseen keep their numbers.
        let positions = await client.infinite.listPositions(in: range)
        return zip(posts, summaries).enumerated().map { offset, pair in
            let position = positions.indices.contains(offset) ? positions[offset] : range.lowerBound + offset
            return PostLine(position: PlaceConverter.saturatingAdd(position, 1), post: pair.0, image: pair.1)
        }
    }

    /// Prints the posts at feed indices `range` (nothing when it is empty).
    func printText(_ range: Range<Int>, images: Bool = true) async throws {
        guard !range.isEmpty else { return }
        let width = PostRenderer.titleWidth
        let text = try await make(range, images: images).map { PostRenderer.listEntry($0, width: width) + "\n" }.joined()
        do {
            try StandardStream.output.write(text)
        } catch {
            throw CLIError("\(error); the saved place stays before post \(range.lowerBound + 1), so the next run shows these posts again")
        }
    }
}

/// `--json` output of `list` and `page`.
struct ListOutput: Encodable {
    var mode: String
    /// `popularity` for `list --sort popularity`; absent in the backend's order.
    var order: String? = nil
    /// The rank in the popularity order of the first post printed (1 = most popular).
    var firstRank: Int? = nil
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
        if let response = image.response, let url = image.url {
            self.init(url: url, response: response, path: image.fileURL)
        } else {
            self.init(url: image.url, error: image.error.map(RecoveryAdvice.reason(of:)) ?? "unavailable")
            // A URL that cannot be fetched is named by its message, as the post gave it; an
            // empty one has no URL (`image.url` is nil).
            if image.error?.code == .unsupportedURL { url = "" }
        }
    }
}
