import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

@main
struct PostFeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postfeed",
        abstract: "Read a feed of posts page by page, with images cached and your place kept between runs.",
        discussion: """
            Without --base-url, postfeed starts its built-in fixture backend on a loopback \
            port, so the first run needs no setup. Each list mode (infinite scroll, numbered \
            pages) keeps its place in Cache/State/, and images are cached in memory and in \
            Cache/ImageCache/.

            Examples:
              postfeed list --pages 2          the next two pages of the infinite feed
              postfeed page 3                  page 3 of the numbered mode
              postfeed mode paged              switch modes, keeping your place
              postfeed show 42                 one post in full, with its image
              postfeed browse                  read interactively
              postfeed list --base-url http://localhost:3000 --api json-server
            """,
        version: "1.0.0",
        subcommands: [
            Browse.self, List.self, PageCommand.self, Mode.self, Show.self, ImageCommand.self, StateCommand.self,
            CacheCommand.self, Serve.self,
        ],
        defaultSubcommand: List.self
    )

    /// ArgumentParser's `main`, with one change: an error's message is written without a
    /// URL's credentials and without control characters, whatever error it is (one the
    /// library threw may quote a server's error body, which must not drive the terminal).
    static func main() async {
        StandardDescriptors.holdClosed()
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            // --help, --version and the like: printed on stdout as ArgumentParser does.
            if code == .success { exit(withError: error) }
            // A library error with a recovery: worded with this tool's flags and commands.
            var message = RecoveryAdvice.messageIfRecoverable(error).map { "Error: " + $0 } ?? fullMessage(for: error)
            // A usage error: one line and where help is, not the whole synopsis.
            if code == .validationFailure { message = UsageErrorText.condensed(message) }
            if !message.isEmpty {
                try? StandardStream.error.write(BackendDescription.removingUserInfo(message).terminalLines + "\n")
            }
            Foundation.exit(code.rawValue)
        }
    }
}
