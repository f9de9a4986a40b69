import Foundation

/// The terminal in raw mode for `postfeed browse`: keys arrive one at a time, unechoed, on
/// the alternate screen with the cursor hidden. The original mode (the exact termios) and
/// the main screen are restored by ``restore()``, which the command calls on every exit
/// path (quit, error, SIGINT/SIGTERM/SIGHUP).
final class RawTerminal: @unchecked Sendable {
    /// A key press, decoded from the bytes a terminal sends.
    enum Key: Equatable {
        case character(Character)
        case up, down, pageUp, pageDown, home, end, enter, escape
        /// Ctrl-C, which raw mode delivers as a byte: quit and save, also at a prompt.
        case interrupt
        case endOfInput
    }

    private var original = termios()
    private let isTerminal: Bool
    private var restored = true
    /// A pipe whose read end turns readable when reading must stop (``stopReading()``); `nil`
    /// when no pipe could be made, and reads then block as before.
    private let wake: (read: Int32, write: Int32)?

    /// Where keys are read from: stdin, or another descriptor in tests.
    private let input: Int32

    init(input: Int32 = STDIN_FILENO) {
        self.input = input
        isTerminal = isatty(input) == 1
        wake = Self.wakePipe()
    }

    /// A close-on-exec pipe whose ends are above the standard descriptors (with stdin
    /// closed, `pipe` would hand out 0, which is then read as the keys), the write end
    /// non-blocking; nil when one cannot be made.
    private static func wakePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let moved = ends.map { fcntl($0, F_DUPFD_CLOEXEC, 3) }
        for end in ends { close(end) }
        guard moved.allSatisfy({ $0 >= 3 }) else {
            for end in moved where end >= 0 { close(end) }
            return nil
        }
        _ = fcntl(moved[1], F_SETFL, O_NONBLOCK)  // stopReading() never blocks
        return (moved[0], moved[1])
    }

    deinit {
        if let wake {
            close(wake.read)
            close(wake.write)
        }
    }

    /// Makes a ``readKey()`` blocked now, and every later one, return `.endOfInput` without
    /// reading stdin, so keys typed after `browse` has quit reach the shell, not us.
    func stopReading() {
        guard let wake else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)  // never drained: the stop stays
    }

    /// Whether keys come from a terminal (else from a pipe, one byte a key).
    var isInteractive: Bool { isTerminal }

    /// Enters raw mode and the alternate screen; nothing when already in them.
    func enableRawMode() {
        guard isTerminal, restored, tcgetattr(input, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        restored = false
        write("\u{1B}[?1049h\u{1B}[?25l")  // the alternate screen, the cursor hidden
    }

    /// Leaves the alternate screen, shows the cursor and puts the original termios back.
    /// Idempotent; safe after the terminal has gone (SIGHUP): the writes are then dropped.
    func restore() {
        guard isTerminal, !restored else { return }
        restored = true
        write("\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &original)
    }

    /// Stopped by Ctrl-Z and not yet continued: nothing is drawn (the screen is the shell's).
    private(set) var isSuspended = false

    /// Ctrl-Z (SIGTSTP): the terminal as it was before `browse` (the main screen, the
    /// original termios), then the process stops (SIGSTOP: SIGTSTP is watched, so raising it
    /// would not stop). Output is dropped until ``resumeAfterStop()``: `kill` may return
    /// before the process has stopped, and a frame drawn then would land on the shell's
    /// screen.
    func suspendProcess() {
        let wasRaw = !restored
        restore()
        isSuspended = wasRaw || isSuspended
        kill(getpid(), SIGSTOP)
    }

    /// SIGCONT (`fg`): raw mode and the alternate screen again when Ctrl-Z left them; the
    /// caller draws the screen again (as tig and newsboat do).
    func resumeAfterStop() {
        guard isSuspended else { return }
        isSuspended = false
        enableRawMode()
    }

    /// The terminal's size in (rows, columns); `nil` when not on a terminal.
    var size: (rows: Int, columns: Int)? {
        guard isTerminal else { return nil }
        var size = winsize()
        for descriptor in [STDOUT_FILENO, input] where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 {
            if size.ws_row > 0, size.ws_col > 0 { return (Int(size.ws_row), Int(size.ws_col)) }
        }
        return (24, 80)
    }

    /// Draws a whole frame on a terminal: from the top-left corner, each line erased to its
    /// end, no line feed after the last (which would scroll a full screen by one), and
    /// everything below erased. One write, so a frame never shows half drawn.
    func drawFrame(_ lines: [String]) {
        write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    /// Blocks for the next key.
    func readKey() -> Key {
        guard let byte = readByte() else { return .endOfInput }
        switch byte {
        case 0x1B:
            guard isTerminal, let next = readByte(timeoutMilliseconds: 30) else { return .escape }
            guard next == UInt8(ascii: "["), let code = readByte(timeoutMilliseconds: 30) else { return .escape }
            switch code {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "H"): return .home
            case UInt8(ascii: "F"): return .end
            case UInt8(ascii: "5"), UInt8(ascii: "6"):
                _ = readByte(timeoutMilliseconds: 30)  // the trailing "~"
                return code == UInt8(ascii: "5") ? .pageUp : .pageDown
            default: return .escape
            }
        case 0x0D, 0x0A: return .enter
        case 0x03: return .interrupt
        case 0x00..<0x80: return .character(Character(Unicode.Scalar(byte)))
        default: return .character(readUTF8(startingWith: byte))
        }
    }

    /// The character a UTF-8 sequence starting with `lead` encodes, its continuation bytes
    /// read as they come (a terminal may split one key over two reads); U+FFFD for a
    /// malformed sequence, whose stray bytes are dropped.
    private func readUTF8(startingWith lead: UInt8) -> Character {
        let length = UTF8Sequence.length(ofSequenceStartingWith: lead)
        var bytes = [lead]
        while bytes.count < length, let next = readByte(timeoutMilliseconds: isTerminal ? 200 : nil) {
            guard UTF8Sequence.isContinuation(next) else { break }  // dropped: a key never starts so
            bytes.append(next)
        }
        return UTF8Sequence.character(from: bytes)
    }

    /// Screen output; a failed write is dropped (`browse` saves on its own, on `q`).
    func write(_ text: String) {
        guard !isSuspended else { return }
        try? StandardStream.output.write(text)
    }

    /// Clears the screen on a terminal; separates frames with a rule when piped.
    func clearScreen() {
        write(isTerminal ? "\u{1B}[2J\u{1B}[H" : "\n")
    }

    /// The next byte of stdin; `nil` at its end, after `timeoutMilliseconds` without one, or
    /// once ``stopReading()`` is called (which wins over a byte waiting).
    private func readByte(timeoutMilliseconds: Int32? = nil) -> UInt8? {
        if let wake {
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                let ready = poll(&descriptors, 2, timeoutMilliseconds ?? -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, descriptors[1].revents == 0 else { return nil }
                break
            }
        } else if let timeoutMilliseconds {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return nil }
        }
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}

/// Decoding one key's UTF-8 bytes (pure, for tests).
enum UTF8Sequence {
    /// Bytes in the sequence `lead` starts (1 for ASCII and for a byte that cannot start one).
    static func length(ofSequenceStartingWith lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }

    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// The character `bytes` encode, or U+FFFD when they are not one well-formed sequence.
    static func character(from bytes: [UInt8]) -> Character {
        guard bytes.count == length(ofSequenceStartingWith: bytes.first ?? 0),
            let text = String(validating: bytes, as: UTF8.self), text.unicodeScalars.count == 1,
            let character = text.first
        else { return "\u{FFFD}" }
        return character
    }
}
