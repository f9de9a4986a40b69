import Foundation
import Testing
import PostFeedImaging

/// The image fuzz targets' committed seeds (Fuzz/Corpus/image-*) through the decoder the
/// product uses, in the normal test run: every intact seed decodes at full size and as a
/// preview, the bombs are refused from their headers, and the damaged copies decode or
/// fail with one line. A seed that stops decoding would leave its fuzz target starting
/// from less than it claims.
@Suite struct FuzzSeedTests {
    static let corpusDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    /// Seeds the libraries do not decode, on purpose (none today: the CMYK JPEG and the
    /// animated WebP once were).
    static let unsupported: Set<String> = []

    static func seeds(_ format: ImageFormat) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: corpusDirectory.appendingPathComponent("image-\(format.rawValue)"), includingPropertiesForKeys: nil
        ).sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: ImageFormat.allCases)
    func seedsDecodeOrFailAsExpected(_ format: ImageFormat) throws {
        let decoder = ImageDecoder()
        let files = try Self.seeds(format)
        #expect(files.count >= 7, "the \(format) corpus holds \(files.count) seeds")
        var intact = 0
        for file in files {
            let name = file.lastPathComponent
            let data = try Data(contentsOf: file)
            #expect(data.count < 20_000, "\(name) is \(data.count) bytes")
            if name.hasPrefix("bomb") {
                let error = try #require(throws: ImageDecodingError.self, "\(name)") { try decoder.decode(data) }
                #expect(error.isTooLarge && error.message.contains("50000×50000"), "\(name): \(error.message)")
            } else if name.hasPrefix("truncated") || name.hasPrefix("flipped") {
                do {
                    _ = try decoder.decode(data, fittingIn: PixelSize(width: 64, height: 64))
                } catch {
                    #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(name): \(error.message)")
                }
            } else if Self.unsupported.contains(name) {
                let error = try #require(throws: ImageDecodingError.self, "\(name)") { try decoder.decode(data) }
                #expect(error.isCorrupt && error.format == format, "\(name): \(error.message)")
            } else {
                #expect(ImageFormat(sniffing: data) == format, "\(name)")
                let header = try decoder.size(of: data)
                let full = try decoder.decode(data)
                #expect(full.size == header, "\(name)")
                let preview = try decoder.decode(data, fittingIn: PixelSize(width: 8, height: 8))
                #expect(preview.width <= 8 && preview.height <= 8 && (preview.width == 8 || preview.height == 8), "\(name): \(preview.size)")
                intact += 1
            }
        }
        #expect(intact >= 4, "\(intact) intact \(format) seeds")
    }
}
