import ArgumentParser
import Foundation
import PostFeed

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Read interactively: scroll, switch modes, page, refresh; q saves and quits.",
        discussion: """
            Keys:
              j / ↓   next post            k / ↑   previous post
              space   next screen          b       previous screen
              n / p   next / previous page (paged mode)
              g       go to page (paged) or post number (infinite); ⏎ goes, Esc cancels
              m       toggle infinite / paged, keeping your place
              o / ⏎   open the post at the top (detail view; any key goes back)
              r       refresh from the network
              q       save your place and quit (also Ctrl-C, SIGTERM)

            Keys may also be piped in, one byte each: printf 'jjmq' | postfeed browse
            """)

    @OptionGroup var backend: BackendOptions

    @Option(parsing: .unconditional, help: "Posts on one screen, 1…1000 (default: what fits the terminal).")
    var rows: Int?

    func validate() throws {
        if let rows, !(1...1000).contains(rows) {
            throw ValidationError("--rows \(rows) is out of range; use 1…1000.")
        }
    }

    func run() async throws {
        try await Session.run(backend) { client in
            let terminal = RawTerminal()
            let height = rows ?? (terminal.isInteractive ? max(3, (Self.terminalRows() - 5) / 2) : 5)
            var screen = BrowseScreen(client: client, terminal: terminal, visibleCount: height)
            try await screen.open(mode: client.currentMode().mode)
            terminal.enableRawMode()
            let keys = KeyReader.start(terminal)
            let termination = TerminationWatcher.start()
            defer {
                termination.stop()
                terminal.restore()
            }
            await screen.render()
            for await event in merge(keys: keys, termination: termination.events) {
                let keepGoing: Bool
                switch event {
                case .key(let key): keepGoing = await screen.handle(key)
                case .terminate: keepGoing = false
                }
                if !keepGoing { break }
                await screen.render()
            }
            let notices = try await screen.save()
            terminal.restore()
            print("")
            notices.forEach { Terminal.note("postfeed: \($0)") }
            print("postfeed: place saved (\(screen.mode) mode)")
        }
    }

    static func terminalRows() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return 24
    }

    enum Event: Sendable {
        case key(RawTerminal.Key)
        case terminate
    }

    /// Keys and termination signals in one stream.
    private func merge(keys: AsyncStream<RawTerminal.Key>, termination: AsyncStream<Int32>) -> AsyncStream<Event> {
        AsyncStream { continuation in
            let keyTask = Task {
                for await key in keys { continuation.yield(.key(key)) }
                continuation.yield(.key(.endOfInput))
            }
            let signalTask = Task {
                for await _ in termination { continuation.yield(.terminate) }
            }
            continuation.onTermination = { _ in
                keyTask.cancel()
                signalTask.cancel()
            }
        }
    }
}

/// Reads keys on a dedicated thread (a blocking `read` must not hold a concurrency thread).
enum KeyReader {
    static func start(_ terminal: RawTerminal) -> AsyncStream<RawTerminal.Key> {
        let (stream, continuation) = AsyncStream<RawTerminal.Key>.makeStream()
        let thread = Thread {
            while true {
                let key = terminal.readKey()
                continuation.yield(key)
                if key == .endOfInput { break }
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
