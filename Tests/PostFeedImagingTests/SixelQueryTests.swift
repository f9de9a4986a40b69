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
    private func ask(answering answer: String?) throws -> (supported: Bool, asked: String) {
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
        return (supported, String(decoding: asked.bytes, as: UTF8.self))
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
