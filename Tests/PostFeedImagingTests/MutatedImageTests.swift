import Foundation
import Testing
import PostFeedImaging

/// A cheap, deterministic stand-in for fuzzing inside the unit tests: thousands of
/// mutated images of every format are decoded; each is either decoded or refused with a
/// one-line reason, and none traps.
@Suite struct MutatedImageTests {
    /// SplitMix64, seeded, so a failure replays.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    static func seed(_ format: ImageFormat) throws -> Data {
        let source = TestImages.gradient(width: 48, height: 32)
        return switch format {
        case .jpeg: TestImages.jpeg(source)
        case .png: try Data(contentsOf: TestImages.fixturesDirectory.appendingPathComponent("img-003.png"))
        case .webp: TestImages.webp(source)
        case .gif: TestImages.gif(source, interlaced: true)
        }
    }

    @Test(arguments: ImageFormat.allCases)
    func mutatedImagesDecodeOrFailWithOneLine(_ format: ImageFormat) throws {
        let original = [UInt8](try Self.seed(format))
        var random = Random(state: 0x5EED_0000 + UInt64(format.rawValue.count))
        // A low limit keeps mutated headers from asking for huge (legal) buffers.
        let decoder = ImageDecoder(maximumPixelCount: 4_000_000)
        var decoded = 0, refused = 0
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<(1 + random.below(8)) {
                let index = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes[index] ^= 1 << UInt8(random.below(8))
                default: bytes[index] = [0x00, 0xFF, 0x7F, 0x80][random.below(4)]
                }
            }
            if random.below(4) == 0 { bytes = Array(bytes.prefix(random.below(bytes.count))) }
            do {
                let image = try decoder.decode(Data(bytes), fittingIn: PixelSize(width: 64, height: 64))
                #expect(image.pixels.count == image.width * image.height * 4)
                decoded += 1
            } catch {
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(error.message)")
                refused += 1
            }
        }
        #expect(decoded + refused == 1500)
        print("\(format): \(decoded) mutated images decoded, \(refused) refused")
    }
}
