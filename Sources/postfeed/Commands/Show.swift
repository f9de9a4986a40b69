import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedImaging

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one post in full, its image drawn above the text (the detail view).",
        discussion: """
            On a terminal the image is drawn as wide as the window and at most half its \
            height, with the protocol --images names (auto: kitty, iTerm2 or sixel when the \
            terminal has one, else Unicode symbols). Piped, nothing is drawn unless --images \
            names a protocol. A drawn preview is kept in the thumbnail cache: the next \
            'show' at the same size draws it without decoding the image again.

            Examples:
              postfeed show 42
              postfeed show 42 --images symbols
              postfeed show 42 --images none
              postfeed show 42 --open          writes ./42.png and opens it with xdg-open
              postfeed show 42 --json
              postfeed show t3_1abc            any id the backend has, as it has it
            """)

    @OptionGroup var backend: BackendOptions
    @OptionGroup var display: ImageDisplayOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The post's id.", valueName: "id"))
    var idArgument: [String] = []

    func validate() throws {
        guard try PostIDArgument.parse(idArgument) != nil else {
            throw ValidationError("give the id of the post to show, e.g. 'postfeed show 42'.")
        }
    }

    @Flag(help: "Print JSON instead of text (no preview).")
    var json = false

    @Flag(help: "Also write the original image to ./<id>.<ext> (as 'postfeed image' does) and open it with xdg-open.")
    var open = false

    func run() async throws {
        guard let id = try PostIDArgument.parse(idArgument) else { return }
        try await Session.run(backend) { client in
            let post = try await client.repository.post(id: id, cachePolicy: .useCache)
            // The text is here; a slow image would otherwise leave the terminal silent. The
            // note is erased before the preview (above the text) or anything else is written.
            let note = client.backend.imageURL(for: post).map { url in
                LoadingNote.start("loading image for post \(id.shown) from \(url.host ?? "the backend")…")
            }
            defer { note?.end() }
            let image = await client.image(for: post)
            if json {
                note?.end()
                try JSONOutput.print(PostLine(position: 0, post: post, image: image.map(ImageSummary.init)).detailJSON)
            } else {
                if let response = image?.response {
                    try await drawPreview(of: response, postID: id, client: client, note: note)
                }
                note?.end()
                print(PostRenderer.detail(post, image: image.map(ImageSummary.init)))
            }
            if open {
                guard let image else { throw CLIError("post \(id.shown) has no image to open") }
                try await Self.open(image, postID: id)
            }
        }
    }

    /// The preview above the text; an image that cannot be drawn is one line on stderr,
    /// and the text follows as usual. `note` (the loading note) stays up while the image
    /// is decoded, and is erased just before anything is written.
    private func drawPreview(
        of response: ImageResponse, postID id: PostID, client: FeedClient, note: LoadingNote?
    ) async throws {
        let style = display.style()
        guard style.imageProtocol != .none, let previews = client.previews else { return }
        do {
            let preview = try await previews.preview(of: response, fittingIn: ImageDisplayOptions.previewBox, style: style)
            note?.end()
            guard !preview.text.isEmpty else { return }
            try StandardStream.output.write(preview.text + "\n")
        } catch {
            note?.end()
            Terminal.note("postfeed: the image of post \(id.shown) is not drawn: \(error)")
        }
    }

    /// How long `--open` waits for the opener to say whether it succeeded.
    static let openerWait: Duration = .seconds(5)

    /// `--open`: the original as a file, handed to `xdg-open` when it is installed.
    private static func open(_ image: PostImage, postID id: PostID) async throws {
        // show has no --output: the way to another place is `image`.
        let file = try OriginalImageFile.write(
            image, postID: id, to: nil,
            writableHint: "run it from a folder you can write to, or write the image elsewhere with 'postfeed image \(id) --output FILE'"
        ).file
        guard let opener = ExecutableSearch.find("xdg-open") else {
            Terminal.note("postfeed: xdg-open is not installed, so nothing opened the image; it is at \(file.path)")
            return
        }
        // Our output first, then the opener's: what it prints goes to stderr, never into
        // stdout (which may be `--json`).
        flushStandardOutput()
        let process = Process()
        process.executableURL = opener
        process.arguments = [file.path]
        process.standardOutput = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CLIError("could not run \(opener.path) \(file.path): \(error.localizedDescription); the image is at \(file.path)")
        }
        // xdg-open hands the file over and returns; one that stays (a viewer run in the
        // foreground) is left to run after a few seconds rather than holding the command.
        // Polled with a task sleep: no cooperative thread is held while it runs.
        let clock = ContinuousClock()
        let deadline = clock.now + Self.openerWait
        while process.isRunning, clock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            Terminal.note("postfeed: \(opener.path) is still running with \(file.path); left it running")
            return
        }
        guard process.terminationStatus == 0 else {
            throw CLIError("\(opener.path) \(file.path) failed (exit \(process.terminationStatus)); the image is at \(file.path)")
        }
        Terminal.note("postfeed: opened \(file.path) with \(opener.path)")
    }
}

extension PostLine {
    /// `show --json`: the post and its image, without a list position.
    var detailJSON: [String: AnyEncodable] {
        var result: [String: AnyEncodable] = ["post": AnyEncodable(ReadablePostJSON(post))]
        if let image { result["image"] = AnyEncodable(image) }
        return result
    }
}

/// Type-erases an `Encodable` for heterogeneous JSON objects.
struct AnyEncodable: Encodable {
    private let encodeValue: (any Encoder) throws -> Void
    init(_ value: some Encodable) { encodeValue = value.encode }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}
