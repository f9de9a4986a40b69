import ArgumentParser
import Foundation
import PostFeed

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the next pages of the infinite feed, continuing where the last run stopped.",
        discussion: """
            Each run appends pages after what was already loaded and saves the place in
            Cache/State/infinite-scroll-state.json: the top of the last page printed, so
            'postfeed mode paged' opens that page. Posts are numbered by their position in
            the backend's list, also with --unseen. Images of the printed posts are fetched
            into the memory and disk caches. Ctrl-C (or SIGTERM) stops the loading: the
            posts already loaded are printed and the place is saved after them.

            Examples:
              postfeed list                      the next page
              postfeed list --pages 3 --json     three pages as JSON
              postfeed list --restart            from the top (the saved place is replaced)
              postfeed list --sort popularity --unseen
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
        help: "Order within each page: backend (default) or popularity.",
        completion: .list(FeedOrdering.names), transform: { try FeedOrdering.parse($0, option: "--sort") })
    var sort: FeedOrdering = .backend

    @Flag(help: "Hide posts already shown in an earlier run.")
    var unseen = false

    @Flag(name: .customLong("no-images"), help: "Do not fetch images.")
    var noImages = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// `list` takes no arguments; as the default command it also receives a mistyped
    /// command name (`postfeed lsit`), which deserves better than "Unexpected argument".
    @Argument(help: .hidden)
    var stray: [String] = []

    func validate() throws {
        if let word = stray.first {
            let commands = PostFeedCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
            throw ValidationError("'\(word)' is not a postfeed command; use one of \(commands.joined(separator: ", ")) (postfeed --help).")
        }
        guard pages >= 1 else { throw ValidationError("--pages \(pages) must be at least 1.") }
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
            return try await command.run()
        }
        let ordering = sort
        let (json, noImages, pageCount) = (json, noImages, pages)
        try await Session.run(backend, configure: {
            $0.infinite.ordering = ordering
            $0.infinite.unseenOnly = unseen
            // --no-images fetches none, also not in the background.
            if noImages { $0.infinite.imagePrefetchCount = 0 }
        }) { client in
            // --restart simply does not resume: the first page loaded replaces the saved place,
            // so a restart that fails before loading anything leaves the old place intact.
            let resumed = restart ? await client.restartInfinite() : try await client.resumeInfinite()
            resumed.notices.forEach { Terminal.note("postfeed: \($0)") }
            let feed = client.infinite
            let start = await feed.count
            let lines = ListLines(client: client, start: start, fetchImages: !noImages)
            // Text: each page is printed as soon as it is loaded (with its images), then the
            // place is saved after it, so the saved place never runs ahead of what the reader
            // saw, whatever ends the run. JSON is one document, printed at the end.
            // A page that fails after others loaded ends the loop: the pages before it stand and
            // are saved before the failure is reported. SIGINT/SIGTERM end it the same way (see
            // `Interruption`).
            let (progress, interruption) = await Interruption.run { () -> LoadProgress in
                var progress = LoadProgress(printedEnd: start, place: resumed.anchorIndex)
                for page in 1...pageCount {
                    if Task.isCancelled { break }
                    Terminal.progress("loading page \(page) of \(pageCount)…")
                    do {
                        let pageStart = await feed.count
                        guard try await feed.loadMore() > 0 else { break }
                        // The reader's place: the top of the last page printed.
                        progress.place = pageStart
                        // JSON is printed at the end, and the place saved after it.
                        guard !json else { continue }
                        Terminal.endProgress()
                        progress.printedEnd = try await lines.printText(from: progress.printedEnd)
                        // The write is atomic, so a kill never tears it.
                        try await client.saveInfinite(anchorIndex: pageStart).forEach { Terminal.note("postfeed: \($0)") }
                        progress.savedEnd = await feed.count
                    } catch {
                        progress.failure = error
                        break
                    }
                }
                return progress
            }
            Terminal.endProgress()
            // A load cut short by the signal is not a failure: the pages before it stand.
            let failureToReport = interruption == nil ? progress.failure : nil
            let end = await feed.count
            if let failureToReport, end == start { throw failureToReport }
            let hasMore = await feed.hasMore
            let total = await feed.totalCount
            let stale = await feed.isShowingStaleContent
            if json {
                let all = try await lines.make(start..<end, images: interruption == nil)
                try JSONOutput.print(ListOutput(
                    mode: "infinite", posts: all, loaded: end, totalCount: total, endReached: !hasMore,
                    stale: stale, notices: resumed.notices))
            } else {
                // Posts loaded but not printed yet (none unless a save failed after a print).
                _ = try await lines.printText(from: progress.printedEnd, images: interruption == nil)
                if stale { Terminal.note("postfeed: the network failed; some pages come from the cache and may be out of date") }
            }
            // The top of the last page printed is where the reader is; already saved so after
            // the last page unless nothing new was loaded (then the place stays where it was).
            if progress.savedEnd != end {
                try await client.saveInfinite(anchorIndex: progress.place).forEach { Terminal.note("postfeed: \($0)") }
            }
            if let interruption {
                Terminal.note(
                    "postfeed: interrupted by \(Interruption.name(of: interruption)) after \(end - start) new posts; "
                        + "the place is saved, and 'postfeed list' continues after post \(end)")
                throw ExitCode(Interruption.exitStatus(for: interruption))
            }
            if let failureToReport { throw failureToReport }
            if json { return }
            if !hasMore {
                print(end == start ? "End of the feed: all \(end) posts are loaded; 'postfeed list --restart' starts over." : "— end of the feed (\(end) posts) —")
            } else {
                print("— \(end)\(total.map { " of \($0)" } ?? "") posts loaded; 'postfeed list' continues —")
            }
        }
    }
}

/// How far one `list` run got: what it printed, what it saved, what stopped it.
private struct LoadProgress: Sendable {
    /// The feed index after the last post printed.
    var printedEnd: Int
    /// The feed index of the reader's place: the first post of the last page loaded, or
    /// the restored place while none was.
    var place: Int
    /// The feed's count when the place was last saved; `nil` before the first save.
    var savedEnd: Int?
    var failure: (any Error)?
}

/// Makes and prints `list`'s lines: posts of the infinite feed with their images.
private struct ListLines: Sendable {
    let client: FeedClient
    let start: Int
    let fetchImages: Bool

    /// Lines for the posts at `range`, with their images unless `images` is `false` or the
    /// task was cancelled (an interrupted run prints what it loaded, without waiting).
    func make(_ range: Range<Int>, images: Bool = true) async throws -> [PostLine] {
        let posts = try await client.infinite.posts(in: range)
        var summaries = [PostImage?](repeating: nil, count: posts.count)
        if fetchImages, images, !Task.isCancelled {
            let fetched = await client.images(for: posts)
            if !Task.isCancelled { summaries = fetched }
        }
        var lines: [PostLine] = []
        for (offset, (post, image)) in zip(posts, summaries).enumerated() {
            // The backend's position: posts hidden by --unseen keep their numbers.
            let position = await client.infinite.listPosition(ofIndex: range.lowerBound + offset)
            lines.append(PostLine(position: PlaceConverter.saturatingAdd(position, 1), post: post, image: image.map(ImageSummary.init)))
        }
        return lines
    }

    /// Prints the posts from feed index `index` to the end of what is loaded; returns the new end.
    func printText(from index: Int, images: Bool = true) async throws -> Int {
        let end = await client.infinite.count
        guard index < end else { return index }
        let text = try await make(index..<end, images: images).map { PostRenderer.listEntry($0) + "\n" }.joined()
        do {
            try StandardStream.output.write(text)
        } catch {
            throw CLIError("\(error); the saved place stays after post \(index), so the next run shows these posts again")
        }
        return end
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
