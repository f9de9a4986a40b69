import ArgumentParser
import Foundation
import PostFeed

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one post in full, with its image's cached path and dimensions (the detail view).",
        discussion: """
            Examples:
              postfeed show 42
              postfeed show 42 --json
            """)

    @OptionGroup var backend: BackendOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The post's id.", valueName: "id"))
    var idArgument: [String] = []

    func validate() throws {
        guard try NumberArgument.parse(idArgument, what: "post id", minimum: Int.min, below: { _ in "" }) != nil else {
            throw ValidationError("give the id of the post to show, e.g. 'postfeed show 42'.")
        }
    }

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let id = try NumberArgument.parse(idArgument, what: "post id", minimum: Int.min, below: { _ in "" }) ?? 0
        try await Session.run(backend) { client in
            let post = try await client.repository.post(id: id, cachePolicy: .useCache)
            let image = await client.image(for: post).map(ImageSummary.init)
            if json { return try JSONOutput.print(PostLine(position: 0, post: post, image: image).detailJSON) }
            print(PostRenderer.detail(post, image: image))
        }
    }
}

extension PostLine {
    /// `show --json`: the post and its image, without a list position.
    var detailJSON: [String: AnyEncodable] {
        var result: [String: AnyEncodable] = ["post": AnyEncodable(post)]
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
