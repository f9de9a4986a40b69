import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

struct PageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "Print a page of the numbered mode (the current one when no number is given).",
        discussion: """
            The page shown is saved in Cache/State/pagination-state.json; without a number,
            the saved page is shown again. A page waits for its images at most --image-wait
            seconds (default 2); images still loading then finish before postfeed exits, so
            the next run has them cached.

            Examples:
              postfeed page 3
              postfeed page --next
              postfeed page --last --json
            """)

    @OptionGroup var backend: BackendOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The page to show, from 1.", valueName: "number"))
    var numberArgument: [String] = []

    /// The page asked for; read from `numberArgument` so `page -1` is told what is wrong.
    var number: Int? { try? NumberArgument.parse(numberArgument, what: "page number", minimum: 1, below: Self.noSuchPage) }

    static func noSuchPage(_ number: Int) -> String { "page \(number) does not exist; pages start at 1." }

    @Flag(help: "The page after the current one.")
    var next = false

    @Flag(help: "The page before the current one.")
    var previous = false

    @Flag(help: "The first page.")
    var first = false

    @Flag(help: "The last page.")
    var last = false

    @Option(parsing: .unconditional, help: "How many pages to print, from the chosen one on.")
    var count: Int = 1

    @Flag(name: .customLong("no-images"), help: "Do not fetch images.")
    var noImages = false

    @OptionGroup var imageWait: ImageWaitOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        let number = try NumberArgument.parse(numberArgument, what: "page number", minimum: 1, below: Self.noSuchPage)
        let choices = [number != nil, next, previous, first, last].filter { $0 }.count
        guard choices <= 1 else { throw ValidationError("Give one of: a page number, --next, --previous, --first, --last.") }
        guard count >= 1 else { throw ValidationError("--count \(count) must be at least 1.") }
    }

    func run() async throws {
        let noImages = noImages
        let navigation: PageNavigation = if let number { .number(number) }
            else if first { .first } else if next { .next } else if previous { .previous } else if last { .last } else { .saved }
        // --no-images fetches none, also not in the background. A page's text waits for its
        // images, not for their disk stores: those finish before the process exits.
        try await Session.run(backend, configure: {
            $0.paged.prefetchImages = !noImages
            $0.images.storesBehind = true
        }) { client in
            // A page waits for its images at most --image-wait; later ones finish at the end.
            let loads = ImageLoads(client: client, wait: imageWait.duration)
            defer { loads.cancel() }
            var output: [ListOutput] = []
            let saveNotices = try await client.readPages(navigation, count: count) { page in
                page.notices.forEach { Terminal.note("postfeed: \($0)") }
                let images = noImages ? page.posts.map { _ in PageImage.none } : await loads.images(for: page.posts)
                let lines = zip(page.posts, images).enumerated().map { offset, pair in
                    PostLine(
                        position: PlaceConverter.saturatingAdd(page.firstPosition, offset), post: pair.0, image: pair.1.summary)
                }
                let result = ListOutput(
                    mode: "paged", page: page.page, totalPages: page.totalPages, posts: lines, totalCount: page.totalCount,
                    endReached: page.isLast, stale: page.isStale, notices: page.notices)
                if json {
                    output.append(result)
                    return
                }
                var text = "Page \(page.page)\(page.totalPages.map { " of \($0)" } ?? "")\n"
                let width = PostRenderer.titleWidth
                for line in lines { text += PostRenderer.listEntry(line, width: width) + "\n" }
                if lines.isEmpty, page.page == 1, page.isLast { text += "The feed is empty: the backend has no posts yet.\n" }
                try StandardStream.output.write(text)
                if let reason = page.staleReason {
                    Terminal.note("postfeed: \(reason); page \(page.page) comes from the cache and may be out of date")
                }
                if page.isLast { print("— last page —") }
            }
            // The place is saved after each page is out (off the path to the first screen):
            // a replaced place is told after the text, and in the JSON's notices.
            saveNotices.forEach { Terminal.note("postfeed: \($0)") }
            if json {
                if let last = output.indices.last { output[last].notices += saveNotices }
                if output.count == 1, let only = output.first { try JSONOutput.print(only) } else { try JSONOutput.print(output) }
            }
            try await finishImages(loads)
            // The next page and its images were prefetched while this one was read: let
            // them land, so `page --next` makes no request. Ctrl-C skips the wait.
            try await finishPrefetching(client)
        }
    }
}
