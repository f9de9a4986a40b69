import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedCache

/// `postfeed image ID [--output FILE]`: the post's original image bytes, from the cache
/// or the network, as a plain file with the right extension.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Write a post's original image to a file (default ./<id>.<ext>).",
        discussion: """
            The bytes are the image as served (from the cache when it is there), written \
            as an ordinary file whose extension matches the format: jpg, png, webp or gif.

            Examples:
              postfeed image 42                  writes ./42.png
              postfeed image 42 --output a.png   writes a.png
              postfeed image 42 -o - | display   the bytes on standard output
              postfeed image t3_1abc -o pics/    writes pics/t3_1abc.png (an id unsafe
                                                 in a file name is escaped, e.g. %2F)
            """)

    @OptionGroup var backend: BackendOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The post's id.", valueName: "id"))
    var idArgument: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (default ./<id>.<ext>; - for standard output).", valueName: "file"))
    var output: String?

    func validate() throws {
        guard try PostIDArgument.parse(idArgument) != nil else {
            throw ValidationError("give the id of the post whose image to write, e.g. 'postfeed image 42'.")
        }
        if let output, output.isEmpty {
            throw ValidationError("--output is empty; give a file name, e.g. 42.jpg, or - for standard output.")
        }
    }

    func run() async throws {
        guard let id = try PostIDArgument.parse(idArgument) else { return }
        try await Session.run(backend) { client in
            let post = try await client.repository.post(id: id, cachePolicy: .useCache)
            guard let image = await client.image(for: post) else {
                throw CLIError("post \(id.shown) has no image")
            }
            let (file, warning) = try OriginalImageFile.write(image, postID: id, to: output)
            warning.map { Terminal.note("postfeed: \($0)") }
            // Written to a device or a pipe (`--output /dev/stdout`): the bytes are the output.
            let intoStream = output == "-" || [.device, .fifo, .socket].contains(FileKind.following(file.path))
            if intoStream { Terminal.note("postfeed: \(OriginalImageFile.summary(file, image))") } else { print(OriginalImageFile.summary(file, image)) }
        }
    }
}
