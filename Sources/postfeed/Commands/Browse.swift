import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedImaging
import Synchronization

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
              Esc     stops a load in progress (g, a page); else clears the search
              /       search the loaded posts; n / N next / previous match
              s       most popular first across everything loaded (infinite), or back
              u       unseen only: hide posts shown in earlier runs (infinite), or back
              m       toggle infinite / paged, keeping your place
              o / ⏎   open the post at the top (detail view, its image's preview above the
                      text; j/k/space/b scroll a long one, any other key goes back)
              i       thumbnails beside the posts on or off (on at the start for kitty,
                      iTerm2 and sixel; --images none draws none)
              r       refresh: back to page 1 from the network; on failure the posts stay
              l       the last message in full (a cut status line ends with [l])
              ?       every key (j/k/space/b scroll it on a short window)
              q       save your place and quit (also Ctrl-C, Ctrl-\\, SIGTERM, SIGHUP: then
                      the exit status is 128 + the signal, 130 for Ctrl-C)
              Ctrl-Z  suspend to the shell, the terminal restored; fg comes back

            Never frozen: pages load while keys are handled, with what is loading at the
            right of the header; q quits at once, cancelling loads. Keys typed ahead are
            kept: one that needs what is still coming (the mode opening, a jump, posts
            past those loaded) waits with the keys after it, and they are applied in order
            once it is there; Esc drops them. After the first scroll the rest of the
            catalog loads in the background (its progress on the status line; paused in
            paged mode), so s orders across it. At most 10 pages stay in memory; pages scrolled
            away come back from the page cache. Cached pages are on screen at once, however
            old; those past their expiry are checked with the server in the background and
            replaced when it has newer ones ("updated page 2" on the status line), the post
            on top kept.

            Images (--images): the detail view draws the post's image above its text as it
            arrives (a failing image is one line saying why); the list draws thumbnails
            from the thumbnail cache, the missing ones in the background. auto picks the
            protocol from the terminal, and draws nothing when the output is not one.

            On a terminal the screen is the alternate screen, laid out again when the
            window is resized (below 7 rows the rules and the hints line make room for the
            posts; on 1 or 2 rows the current post and the status line); the terminal is
            restored on every way out. The header is
            in colour unless NO_COLOR is set; the current post is in reverse video.

            Keys may also be piped in, one byte each: printf 'jjmq' | postfeed browse
            Piped keys are handled one after another, each once the loads of the one
            before have ended, with one frame per key and no background catalog load.
            """)

    @OptionGroup var backend: BackendOptions
    @OptionGroup var display: ImageDisplayOptions

    @Option(parsing: .unconditional, help: "Posts on one screen, 1…1000 (default: what fits the terminal).")
    var rows: Int?

    /// Pages of the infinite feed kept in memory (`maximumResidentPages`).
    static let residentPages = 10

    func validate() throws {
        if let rows, !(1...1000).contains(rows) {
            throw ValidationError("--rows \(rows) is out of range; use 1…1000.")
        }
    }

    func run() async throws {
        // On a terminal, cached pages are shown at once whatever their age and revalidated in
        // the background; piped keys keep `useCache` (each frame after its loads, as before).
        let servesExpiredPages = isatty(STDIN_FILENO) == 1
        try await Session.run(backend, configure: {
            $0.infinite.maximumResidentPages = Self.residentPages
            $0.infinite.servesExpiredPages = servesExpiredPages
            $0.paged.servesExpiredPages = servesExpiredPages
        }) { client in
            let terminal = RawTerminal()
            let count = rows ?? (terminal.isInteractive ? nil : 5)
            let (events, continuation) = AsyncStream<BrowseEvent>.makeStream()
            let screen = BrowseScreen(
                client: client, terminal: terminal, events: continuation, visibleCount: count,
                colour: Self.usesColour(terminal))
            // A damaged or unusable state file is said on the status line and again on stderr
            // at the end (the other mode's file may be the one opened: its own resume
            // would say nothing of this one).
            let current = client.currentMode()
            screen.mode = current.mode
            // Before raw mode: `auto` may ask the terminal whether it draws sixel.
            screen.previewStyle = display.style()
            screen.thumbnailsOn = [.kitty, .iterm, .sixel].contains(screen.previewStyle.imageProtocol)
            // Signals first, so none can end the process between entering the screen and
            // watching for them; `defer` restores the terminal on an error too.
            // SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\, which the Swift runtime would
            // report as a crash over the screen) end the session (the place saved, the
            // terminal restored, exit status 128 + the signal); SIGWINCH re-lays the screen
            // out; SIGTSTP (Ctrl-Z) restores the terminal and stops, and SIGCONT (fg) draws
            // the screen again.
            let signals = TerminationWatcher.start(
                watching: TerminationWatcher.terminating.union([SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT]))
            terminal.enableRawMode()
            let reader = KeyReader.start(terminal)
            let endedBy = EndingSignal()
            let feeding = Self.forward(keys: reader.keys, signals: signals.events, into: continuation, endedBy: endedBy)
            defer {
                reader.stop()
                feeding.cancel()
                signals.stop()
                terminal.restore()
            }
            // A place that cannot be saved is said at the start, not only at q after the session.
            let startNotices = current.notices + [Self.unsavablePlace(client.stateStore.fileURL(for: current.mode))].compactMap { $0 }
            screen.open(announcing: startNotices.isEmpty ? nil : startNotices.joined(separator: "; "))
            if terminal.isInteractive { screen.render() }
            for await event in events {
                guard await screen.handle(event) else { break }
            }
            screen.stop()
            reader.stop()  // before the shell's terminal is back: later keys are the shell's
            terminal.restore()
            if let failure = screen.openFailure { throw failure }
            current.notices.forEach { Terminal.note("postfeed: \($0)") }
            let notices = try await screen.save()
            // On stderr, as every other notice: stdout holds the frames alone.
            notices.forEach { Terminal.note("postfeed: \($0)") }
            if screen.opened {
                Terminal.note("postfeed: place saved (\(screen.mode) mode)")
            } else {
                Terminal.note("postfeed: quit before \(screen.mode) mode opened; the saved place is unchanged")
            }
            // Ended by a signal: the place is saved, and the status says so, as `list`'s does.
            if let signal = endedBy.signal { throw ExitCode(Interruption.exitStatus(for: signal)) }
        }
    }

    /// The signal that ended the session, if one did (the first).
    final class EndingSignal: Sendable {
        private let first = Mutex<Int32?>(nil)
        var signal: Int32? { first.withLock { $0 } }
        func record(_ signal: Int32) { first.withLock { $0 = $0 ?? signal } }
    }

    /// One line when no file can be made where the place is saved (a read-only disk, no
    /// permission, a folder that cannot exist): found by making and removing an empty file
    /// in the nearest existing folder of `stateFile`'s, as the save would have to.
    static func unsavablePlace(_ stateFile: URL) -> String? {
        var folder = stateFile.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path), folder.pathComponents.count > 1 {
            folder = folder.deletingLastPathComponent()
        }
        let probe = folder.appendingPathComponent(".postfeed-write-check-\(getpid())").path
        let descriptor = Glibc.open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor < 0 else {
            close(descriptor)
            unlink(probe)
            return nil
        }
        let reason = String(cString: strerror(errno))
        return "your place cannot be saved here: no file can be made in \(folder.path) (\(reason));"
            + " quit and use another --cache-dir, or make the folder writable"
    }

    /// Colour on a terminal only, and never with `NO_COLOR` set (no-color.org).
    /// `TERM=dumb` is treated as `NO_COLOR`: such a terminal draws no colour.
    static func usesColour(_ terminal: RawTerminal) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return terminal.isInteractive && Terminal.standardOutputIsTerminal
            && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Keys and signals into the loop's one stream.
    private static func forward(
        keys: AsyncStream<RawTerminal.Key>, signals: AsyncStream<Int32>, into events: AsyncStream<BrowseEvent>.Continuation,
        endedBy: EndingSignal
    ) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await key in keys { events.yield(.key(key)) }
                    events.yield(.key(.endOfInput))
                }
                group.addTask {
                    for await number in signals {
                        switch number {
                        case SIGWINCH: events.yield(.resize)
                        case SIGCONT: events.yield(.continued)
                        case SIGTSTP: events.yield(.suspend)
                        default:
                            endedBy.record(number)
                            events.yield(.terminate)
                        }
                    }
                }
            }
        }
    }
}

/// Reads keys on a dedicated thread (a blocking `read` must not hold a concurrency thread).
struct KeyReader {
    let keys: AsyncStream<RawTerminal.Key>
    private let terminal: RawTerminal
    private let finished: DispatchSemaphore

    static func start(_ terminal: RawTerminal) -> KeyReader {
        let (stream, continuation) = AsyncStream<RawTerminal.Key>.makeStream()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            while true {
                let key = terminal.readKey()
                continuation.yield(key)
                if key == .endOfInput { break }
            }
            continuation.finish()
            finished.signal()
        }
        thread.start()
        return KeyReader(keys: stream, terminal: terminal, finished: finished)
    }

    /// Stops reading and waits (a second at most) until the thread has read its last byte:
    /// called before the terminal is restored, so every key typed after that is the shell's.
    /// Whether the thread ended in time.
    @discardableResult
    func stop() -> Bool {
        terminal.stopReading()
        guard finished.wait(timeout: .now() + .seconds(1)) == .success else { return false }
        finished.signal()  // ended for good: a second stop() (the command's `defer`) returns at once
        return true
    }
}
