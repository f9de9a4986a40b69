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
              /       search the loaded posts; n / N next / previous match, Esc clears
              r       refresh from the network
              ?       every key
              q       save your place and quit (also Ctrl-C, SIGTERM, SIGHUP)

            On a terminal the screen is the alternate screen, laid out again when the
            window is resized; the terminal is restored on every way out.

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
            let count = rows ?? (terminal.isInteractive ? nil : 5)
            var screen = BrowseScreen(client: client, terminal: terminal, visibleCount: count)
            try await screen.open(mode: client.currentMode().mode)
            // Signals first, so none can end the process between entering the screen and
            // watching for them; `defer` restores the terminal on an error too.
            // SIGINT, SIGTERM and SIGHUP end the session (the place saved, the terminal
            // restored); SIGWINCH re-lays the screen out.
            let signals = TerminationWatcher.start(watching: TerminationWatcher.terminating.union([SIGHUP, SIGWINCH]))
            terminal.enableRawMode()
            let keys = KeyReader.start(terminal)
            defer {
                signals.stop()
                terminal.restore()
            }
            await screen.render()
            for await event in merge(keys: keys, signals: signals.events) {
                let keepGoing: Bool
                switch event {
                case .key(let key): keepGoing = await screen.handle(key)
                case .resize:
                    await screen.resize()
                    keepGoing = true
                case .terminate: keepGoing = false
                }
                if !keepGoing { break }
                await screen.render()
            }
            terminal.restore()
            let notices = try await screen.save()
            print("")
            notices.forEach { Terminal.note("postfeed: \($0)") }
            print("postfeed: place saved (\(screen.mode) mode)")
        }
    }

    enum Event: Sendable {
        case key(RawTerminal.Key)
        case resize
        case terminate
    }

    /// Keys and signals in one stream.
    private func merge(keys: AsyncStream<RawTerminal.Key>, signals: AsyncStream<Int32>) -> AsyncStream<Event> {
        AsyncStream { continuation in
            let keyTask = Task {
                for await key in keys { continuation.yield(.key(key)) }
                continuation.yield(.key(.endOfInput))
            }
            let signalTask = Task {
                for await number in signals { continuation.yield(number == SIGWINCH ? .resize : .terminate) }
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
