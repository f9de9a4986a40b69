import Foundation

/// What the process is connected to: decides between progress on a terminal and quiet,
/// machine-readable output when piped.
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes a line to stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// A transient progress line on stderr, shown only on a terminal.
    static func progress(_ message: String) {
        guard standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(message)".utf8))
    }

    /// Clears the progress line.
    static func endProgress() {
        guard standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    /// Columns of the terminal, 80 when unknown.
    static var width: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

/// Sends what `print` buffered. Piped (a script, `postfeed bench`), stdout is block-buffered:
/// flushed after each page or table row, output appears as it is made, not at exit.
func flushStandardOutput() {
    fflush(nil)  // every output stream; `stdout` itself is a global Swift 6 will not touch
}
