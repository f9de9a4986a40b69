import Foundation
import Testing
import PostFeedImaging
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SixelQueryTests {
    @Test func parsesDeviceAttributes() {
        #expect(SixelQuery.attributes(inAnswer: Array("\u{1B}[?62;4;22c".utf8)) == [62, 4, 22])
        #expect(SixelQuery.attributes(inAnswer: Array("junk\u{1B}[?1;2c".utf8)) == [1, 2])
        #expect(SixelQuery.attributes(inAnswer: Array("\u{1B}[?62;4".utf8)) == nil)
    }

    /// The test plays the terminal on the other side of a pseudo-terminal.
    /// - Returns: also what the program could read on its side after the query (keys
    ///   given back to the terminal's input).
    private func ask(answering answer: String?) throws -> (supported: Bool, asked: String, readAfter: String) {
        final class Asked: @unchecked Sendable { var bytes: [UInt8] = [] }
        let asked = Asked()
        var controller: Int32 = -1, device: Int32 = -1
        try #require(openpty(&controller, &device, nil, nil, nil) == 0)
        defer { close(controller); close(device) }
        let terminalSide = controller
        let terminal = Thread {
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = buffer.withUnsafeMutableBytes { read(terminalSide, $0.baseAddress, $0.count) }
            asked.bytes = Array(buffer.prefix(max(0, count)))
            if let answer { _ = Array(answer.utf8).withUnsafeBytes { write(terminalSide, $0.baseAddress, $0.count) } }
        }
        terminal.start()
        let clock = ContinuousClock()
        let start = clock.now
        let supported = SixelQuery.terminalSupportsSixel(input: device, output: device, timeout: .milliseconds(300))
        #expect(start.duration(to: clock.now) < .seconds(2))
        Thread.sleep(forTimeInterval: 0.05)
        // Raw, so nothing waits for a newline.
        var raw = termios()
        tcgetattr(device, &raw)
        cfmakeraw(&raw)
        tcsetattr(device, TCSANOW, &raw)
        var buffer = [UInt8](repeating: 0, count: 16)
        var pollDevice = pollfd(fd: device, events: Int16(POLLIN), revents: 0)
        let readable = poll(&pollDevice, 1, 100) > 0
        let count = readable ? buffer.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) } : 0
        return (supported, String(decoding: asked.bytes, as: UTF8.self), String(decoding: buffer.prefix(max(0, count)), as: UTF8.self))
    }

    @Test func aSixelTerminalSaysFour() throws {
        let result = try ask(answering: "\u{1B}[?62;4;22c")
        #expect(result.supported)
        #expect(result.asked == "\u{1B}[c")
    }

    @Test func aTerminalWithoutSixel() throws {
        #expect(try !ask(answering: "\u{1B}[?62;22c").supported)
    }

    @Test func noAnswerTimesOut() throws {
        #expect(try !ask(answering: nil).supported)
    }

    @Test("keys typed around the answer go back to the terminal's input, in order")
    func typedKeysAroundTheAnswerAreGivenBack() throws {
        // The user types "ab", the terminal answers, the user types "c".
        let result = try ask(answering: "ab\u{1B}[?62;4;22cc")
        #expect(result.supported)
        #expect(result.readAfter == "abc")
    }

    @Test("with keys already waiting, the terminal is not asked (their bytes are not eaten)")
    func keysWaitingSkipTheQuery() throws {
        var controller: Int32 = -1, device: Int32 = -1
        try #require(openpty(&controller, &device, nil, nil, nil) == 0)
        defer { close(controller); close(device) }
        _ = Array("q".utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
        var pollDevice = pollfd(fd: device, events: Int16(POLLIN), revents: 0)
        _ = poll(&pollDevice, 1, 1000)

        #expect(!SixelQuery.terminalSupportsSixel(input: device, output: device, timeout: .milliseconds(100)))

        // No query reached the terminal (only the key's echo did), and the key is still there.
        var shown = [UInt8](repeating: 0, count: 64)
        var asked = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        let echoed = poll(&asked, 1, 50) > 0 ? shown.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) } : 0
        let written = String(decoding: shown.prefix(max(0, echoed)), as: UTF8.self)
        #expect(!written.contains("\u{1B}[c"), "\(written.debugDescription)")
        var byte: UInt8 = 0
        #expect(read(device, &byte, 1) == 1 && byte == UInt8(ascii: "q"))
    }

    @Test func notATerminal() {
        var pipeEnds: [Int32] = [0, 0]
        _ = pipe(&pipeEnds)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        #expect(!SixelQuery.terminalSupportsSixel(input: pipeEnds[0], output: pipeEnds[1]))
    }

    @Test func detectionAsksOnlyWhenItWouldDrawSymbols() {
        var asked = 0
        let symbolsTerminal = ImageProtocol.detect(environment: ["TERM": "xterm-256color"], isTerminal: true) { asked += 1; return true }
        #expect(symbolsTerminal == .sixel && asked == 1)
        let kitty = ImageProtocol.detect(environment: ["TERM": "xterm-kitty"], isTerminal: true) { asked += 1; return true }
        #expect(kitty == .kitty && asked == 1)
        let piped = ImageProtocol.detect(environment: ["TERM": "xterm"], isTerminal: false) { asked += 1; return true }
        #expect(piped == .none && asked == 1)
    }
}
