import Foundation
import PostFeed
import PostFeedPreview
import PostFeedImaging

/// What the process is connected to: decides between progress on a terminal and quiet,
/// machine-readable output when piped.
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes a line to stderr, without credentials and without control characters (a
    /// message may quote a server's error body).
    static func note(_ message: String) {
        try? StandardStream.error.write(BackendDescription.removingUserInfo(message).terminalLines + "\n")
    }

    /// A transient progress line on stderr, shown only on a terminal; cut short of the
    /// last column of stderr's terminal (stdout may be a file), since a line that wraps
    /// leaves its first rows behind when the next one, or ``endProgress()``, erases it.
    static func progress(_ message: String) {
        guard standardErrorIsTerminal else { return }
        let line = DisplayWidth.cut(message, toColumns: max(1, size(of: STDERR_FILENO).columns - 1))
        try? StandardStream.error.write("\r\u{1B}[2K\(line)")
    }

    /// Clears the progress line.
    static func endProgress() {
        guard standardErrorIsTerminal else { return }
        try? StandardStream.error.write("\r\u{1B}[2K")
    }

    /// Columns of the terminal, 80 when unknown.
    static var width: Int { size.columns }

    /// Columns and rows of the terminal on stdout. Where it says none (piped, or a
    /// terminal answering 0), `COLUMNS` and `LINES` when they are positive numbers (at most
    /// ``largestSize``), else 80 × 24.
    static var size: (columns: Int, rows: Int) { size(of: STDOUT_FILENO) }

    /// Columns and rows of the terminal on `descriptor` (stderr for a note written there),
    /// with the same fallbacks as ``size``.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        let answered = ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0
        // The environment is read only where the terminal gave no size (it is copied into a
        // dictionary on each read, and a terminal's answer wins anyway).
        let columns = answered && size.ws_col > 0
            ? Int(size.ws_col) : dimension(ProcessInfo.processInfo.environment["COLUMNS"]) ?? 80
        let rows = answered && size.ws_row > 0
            ? Int(size.ws_row) : dimension(ProcessInfo.processInfo.environment["LINES"]) ?? 24
        return (columns, rows)
    }

    /// The most columns or rows `COLUMNS` and `LINES` can ask for: a larger value is taken
    /// as this (no preview or line the size of a mistyped number).
    static let largestSize = 1000

    /// A `COLUMNS` or `LINES` value: decimal digits only, positive; capped at
    /// ``largestSize`` (also a number too long for an `Int`). Anything else is nil.
    static func dimension(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              value.contains(where: { $0 != "0" }) else { return nil }
        return min(Int(value) ?? largestSize, largestSize)
    }

    /// One cell in pixels, when the terminal reports its size in pixels (many do not).
    static var cellPixelSize: PixelSize? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
              size.ws_xpixel >= size.ws_col, size.ws_ypixel >= size.ws_row else { return nil }
        return PixelSize(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
    }
}

/// Sends what `print` buffered. Piped (a script, `postfeed bench`), stdout is block-buffered:
/// flushed after each page or table row, output appears as it is made, not at exit.
func flushStandardOutput() {
    fflush(nil)  // every output stream; `stdout` itself is a global Swift 6 will not touch
}

/// stdout or stderr, written straight to the descriptor.
///
/// `FileHandle.write(_:)` traps when a write fails (a full disk, a closed descriptor), and
/// `print` fails silently; output that comes before a save of the reader's place must do
/// neither: the place may move only past posts the reader was actually given.
enum StandardStream {
    case output, error

    /// Writes all of `text` after whatever `print` buffered; throws a ``CLIError`` naming
    /// the stream and the system's reason when it cannot be delivered.
    func write(_ text: String) throws(CLIError) {
        flushStandardOutput()
        let descriptor = self == .output ? STDOUT_FILENO : STDERR_FILENO
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw CLIError("cannot write to standard \(self == .output ? "output" : "error"): \(reason)")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
