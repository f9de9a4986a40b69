#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device-attributes query (DA1, `ESC [ c`) for sixel support: a terminal that can
/// draw sixel lists attribute 4 in its answer (`ESC [ ? 62 ; 4 ; 22 c`).
public enum SixelQuery {
    /// Asks the terminal on `input`/`output` (normally the same tty) and waits at most
    /// `timeout` for the answer. False when there is no answer in time, the answer lacks
    /// attribute 4, or the descriptors are not a terminal. Echo and canonical mode are off
    /// while waiting and restored afterwards.
    ///
    /// What the user typed is never eaten: with keys already waiting on `input` the query is
    /// not asked (false), and keys typed while waiting for the answer are given back to the
    /// terminal's input queue (`TIOCSTI`, where the kernel allows it).
    public static func terminalSupportsSixel(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeout: Duration = .milliseconds(150)
    ) -> Bool {
        guard isatty(input) == 1, isatty(output) == 1 else { return false }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return false }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        // Counted without canonical mode, so a line typed but not yet ended counts too.
        guard pendingBytes(input) == 0 else { return false }

        let query: [UInt8] = [0x1B, 0x5B, 0x63]  // ESC [ c
        guard query.withUnsafeBytes({ write(output, $0.baseAddress, $0.count) }) == query.count else { return false }
        guard let answer = readAnswer(input, timeout: timeout) else { return false }
        giveBack(typedAround(answer), to: input)
        return attributes(inAnswer: answer)?.contains(4) == true
    }

    /// Bytes waiting to be read on `input`.
    private static func pendingBytes(_ input: Int32) -> Int32 {
        var count: Int32 = 0
        return ioctl(input, UInt(FIONREAD), &count) == 0 ? count : 0
    }

    /// What `bytes` holds besides the DA1 answer: keys typed while it was awaited.
    static func typedAround(_ bytes: [UInt8]) -> [UInt8] {
        guard let answer = answerRange(in: bytes) else { return bytes }
        return Array(bytes[..<answer.lowerBound] + bytes[answer.upperBound...])
    }

    /// Puts `bytes` back into the terminal's input queue, one by one, as if typed again.
    private static func giveBack(_ bytes: [UInt8], to input: Int32) {
        for var byte in bytes {
            guard ioctl(input, UInt(TIOCSTI), &byte) == 0 else { return }
        }
    }

    /// The numeric attributes of a DA1 answer `ESC [ ? a ; b ; … c` somewhere in `bytes`.
    public static func attributes(inAnswer bytes: [UInt8]) -> [Int]? {
        guard let answer = answerRange(in: bytes) else { return nil }
        // Between `ESC [ ?` and the final `c`.
        let text = String(decoding: bytes[(answer.lowerBound + 3)..<(answer.upperBound - 1)], as: UTF8.self)
        let values = text.split(separator: ";").compactMap { Int($0) }
        return values.isEmpty ? nil : values
    }

    /// Where the first complete DA1 answer (`ESC [ ? … c`) lies in `bytes`.
    private static func answerRange(in bytes: [UInt8]) -> Range<Int>? {
        guard let start = bytes.indices.first(where: { index in
            index + 2 < bytes.count && bytes[index] == 0x1B && bytes[index + 1] == 0x5B && bytes[index + 2] == 0x3F
        }), let end = bytes[(start + 3)...].firstIndex(of: UInt8(ascii: "c")) else { return nil }
        return start..<(end + 1)
    }

    private static func readAnswer(_ input: Int32, timeout: Duration) -> [UInt8]? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while clock.now < deadline {
            let remaining = clock.now.duration(to: deadline)
            let milliseconds = max(1, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            answer += buffer[0..<count]
            if attributes(inAnswer: answer) != nil { return answer }
            if answer.count > 1024 { break }
        }
        return answer.isEmpty ? nil : answer
    }
}
