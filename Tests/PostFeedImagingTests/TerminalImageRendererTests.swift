import Testing
import Foundation
import PostFeedImaging

@Suite struct TerminalImageRendererTests {
    let image = TestImages.gradient(width: 160, height: 120)
    let box = PixelSize(width: 40, height: 20)
    let escape = "\u{1B}"

    @Test func kittyOutputIsFramedInBase64ChunksOfAtMost4096Bytes() throws {
        let output = TerminalImageRenderer(imageProtocol: .kitty).render(image, fittingIn: box)
        #expect(output.hasPrefix("\(escape)_G"))
        // Every APC command: ESC _ G <keys> ; <payload> ESC \
        let commands = output.components(separatedBy: "\(escape)_G").dropFirst()
        #expect(!commands.isEmpty)
        var sawLast = false
        for (index, command) in commands.enumerated() {
            let end = try #require(command.range(of: "\(escape)\\"), "command \(index) is not terminated")
            let body = command[..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            let keys = Set(parts[0].split(separator: ",").map(String.init))
            let payload = parts.count > 1 ? parts[1] : ""
            #expect(payload.utf8.count <= 4096, "chunk \(index) has \(payload.utf8.count) bytes")
            let isBase64 = payload.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) }
            #expect(isBase64, "chunk \(index): \(payload)")
            let isLast = index == commands.count - 1
            if isLast {
                #expect(!keys.contains("m=1"))
                sawLast = true
            } else {
                #expect(keys.contains("m=1"), "chunk \(index) keys \(keys)")
            }
        }
        #expect(sawLast)
        #expect(commands.count > 1, "a 160×120 image in one chunk?")
    }

    /// One kitty transmission's first command's keys and its chunks' payloads joined.
    private func kittyTransmission(_ output: String) throws -> (keys: [String: String], payload: String) {
        let commands = output.components(separatedBy: "\(escape)_G").dropFirst()
        var keys: [String: String] = [:]
        var payload = ""
        for (index, command) in commands.enumerated() {
            let body = try #require(command.components(separatedBy: "\(escape)\\").first)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            let pairs = parts[0].split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
            if index == 0 {
                for pair in pairs where pair.count == 2 { keys[pair[0]] = pair[1] }
            }
            let chunk = parts.count > 1 ? String(parts[1]) : ""
            #expect(chunk.utf8.count <= 4096 && (index == commands.count - 1 || chunk.utf8.count % 4 == 0),
                    "chunk \(index) of \(chunk.utf8.count) bytes")
            payload += chunk
        }
        return (keys, payload)
    }

    /// The kitty spec: the whole payload base64-encoded once, then split. The chunks
    /// joined decode to the s × v pixels the first command announces, 3 bytes each for an
    /// opaque image (`f=24`), 4 with alpha (`f=32`) (chafa encoded each 512-byte piece
    /// alone, each padded with `=`, so the joined text did not decode).
    @Test(arguments: [PixelSize(width: 40, height: 20), PixelSize(width: 3, height: 2), PixelSize(width: 1, height: 1)])
    func kittyPayloadIsOneBase64Stream(_ cells: PixelSize) throws {
        for (picture, format) in [(image, 24), (translucent(image), 32)] {
            let (keys, payload) = try kittyTransmission(TerminalImageRenderer(imageProtocol: .kitty).render(picture, fittingIn: cells))
            let announcedWidth = keys["s"].flatMap { Int($0) }, announcedHeight = keys["v"].flatMap { Int($0) }
            let width = try #require(announcedWidth)
            let height = try #require(announcedHeight)
            #expect(keys["f"] == "\(format)")
            let decoded = try #require(Data(base64Encoded: payload), "the joined payload is not base64")
            #expect(decoded.count == width * height * format / 8)
        }
    }

    /// `image` with its alpha lowered on every other pixel.
    private func translucent(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for index in stride(from: 3, to: pixels.count, by: 8) { pixels[index] = 128 }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Kitty is sent at the pixels the cells hold (10×20 a cell here): an image of exactly
    /// that size goes as it is, byte for byte (RGB when opaque, RGBA otherwise), over the
    /// cells it fills; the terminal scales nothing.
    @Test func kittyPayloadIsTheImagesOwnPixels() throws {
        let exact = TestImages.noise(width: 400, height: 300)
        let renderer = TerminalImageRenderer(imageProtocol: .kitty)
        let (keys, payload) = try kittyTransmission(renderer.render(exact, fittingIn: box))
        #expect(keys["a"] == "T" && keys["s"] == "400" && keys["v"] == "300" && keys["c"] == "40" && keys["r"] == "15", "\(keys)")
        let rgb = exact.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(try #require(Data(base64Encoded: payload)) == Data(rgb))

        let withAlpha = translucent(exact)
        let (alphaKeys, alphaPayload) = try kittyTransmission(renderer.render(withAlpha, fittingIn: box))
        #expect(alphaKeys["f"] == "32")
        #expect(try #require(Data(base64Encoded: alphaPayload)) == Data(withAlpha.pixels))
    }

    /// One translucent pixel, wherever it is, makes the image RGBA.
    @Test(arguments: [0, 1, 299 * 400 + 399])
    func oneTranslucentPixelSendsRGBA(_ pixel: Int) throws {
        var pixels = TestImages.noise(width: 400, height: 300).pixels
        pixels[pixel * 4 + 3] = 254
        let picture = RGBAImage(width: 400, height: 300, pixels: pixels)
        let (keys, payload) = try kittyTransmission(TerminalImageRenderer(imageProtocol: .kitty).render(picture, fittingIn: box))
        #expect(keys["f"] == "32")
        #expect(try #require(Data(base64Encoded: payload)) == Data(pixels))
    }

    /// More pixels than the box holds are area-averaged to fit it (what ``AreaDownscaler``
    /// gives); fewer go as they are, the terminal scaling them to the cells. Pixels that fit
    /// the box are not averaged again to the drawn cells' rounded pixels (1000×107 fits the
    /// 400×400-pixel box as 400×43; its 40×2 cells are 400×40 pixels).
    @Test func kittySendsAtMostTheBoxsPixels() throws {
        let renderer = TerminalImageRenderer(imageProtocol: .kitty)
        let large = TestImages.gradient(width: 1600, height: 1200)
        let (keys, payload) = try kittyTransmission(renderer.render(large, fittingIn: box))
        #expect(keys["s"] == "400" && keys["v"] == "300" && keys["c"] == "40" && keys["r"] == "15", "\(keys)")
        let averaged = AreaDownscaler.downscale(large, to: PixelSize(width: 400, height: 300))
        let rgb = averaged.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(try #require(Data(base64Encoded: payload)) == Data(rgb))

        let small = TestImages.gradient(width: 30, height: 20)
        let cells = renderer.cells(for: small.size, fittingIn: box)
        let (smallKeys, _) = try kittyTransmission(renderer.render(small, fittingIn: box))
        #expect(smallKeys["s"] == "30" && smallKeys["v"] == "20", "\(smallKeys)")
        #expect(smallKeys["c"] == "\(cells.width)" && smallKeys["r"] == "\(cells.height)", "\(smallKeys) for \(cells)")

        let fitted = TestImages.gradient(width: 400, height: 43)
        let (fittedKeys, fittedPayload) = try kittyTransmission(renderer.render(fitted, fittingIn: box))
        #expect(fittedKeys["s"] == "400" && fittedKeys["v"] == "43" && fittedKeys["c"] == "40" && fittedKeys["r"] == "2", "\(fittedKeys)")
        let fittedRGB = fitted.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(try #require(Data(base64Encoded: fittedPayload)) == Data(fittedRGB))
    }

    /// Chunk boundaries: 1,024 RGB pixels (768 RGBA) are exactly one 4096-byte chunk.
    @Test(arguments: [1, 767, 768, 769, 1023, 1024, 1025, 3000])
    func kittyChunksSplitTheOneText(_ pixelCount: Int) throws {
        for picture in [TestImages.noise(width: pixelCount, height: 1), translucent(TestImages.noise(width: pixelCount, height: 1))] {
            let output = TerminalImageRenderer(imageProtocol: .kitty).render(picture, fittingIn: PixelSize(width: 4000, height: 1))
            let (keys, payload) = try kittyTransmission(output)
            let bytesPerPixel = keys["f"] == "24" ? 3 : 4
            let expected = (pixelCount * bytesPerPixel + 2) / 3 * 4
            #expect(payload.utf8.count == expected)
            let commands = output.components(separatedBy: "\(escape)_G").dropFirst()
            #expect(commands.count == (expected + 4095) / 4096, "\(pixelCount) pixels, f=\(bytesPerPixel * 8)")
            #expect(commands.last?.hasPrefix(commands.count == 1 ? "a=T" : "m=0;") == true)
            let continued = commands.dropLast().allSatisfy { $0.contains("m=1;") }
            #expect(commands.last?.contains("m=0;") == true && continued)
            let decoded = try #require(Data(base64Encoded: payload))
            let sent = bytesPerPixel == 4 ? picture.pixels : picture.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            #expect(decoded == Data(sent))
        }
    }

    /// Symbols draw 8×8 sub-cells per cell, and a cell is twice as tall as wide: the pixels
    /// decoded for a preview must cover that grid in both directions, or the picture loses
    /// horizontal detail (a 1600×1200 photo was decoded at 213×160 for a 320×120 grid).
    @Test(arguments: [PixelSize(width: 1600, height: 1200), PixelSize(width: 1200, height: 1600), PixelSize(width: 3000, height: 500)])
    func symbolsDecodeEnoughPixelsForTheSubCellGrid(original: PixelSize) {
        let renderer = TerminalImageRenderer(imageProtocol: .symbols)
        let box = PixelSize(width: 40, height: 20)

        let decoded = original.fitting(in: renderer.pixelBox(forCells: box))
        let drawn = renderer.cells(for: original, fittingIn: box)

        #expect(decoded.width >= drawn.width * 8 - 1, "decoded \(decoded) for \(drawn) cells")
        #expect(decoded.height >= drawn.height * 8 - 1, "decoded \(decoded) for \(drawn) cells")
    }

    @Test func itermOutputIsAnInlineFile() {
        let output = TerminalImageRenderer(imageProtocol: .iterm).render(image, fittingIn: box)
        #expect(output.contains("\(escape)]1337;File="))
        #expect(output.contains("inline=1"))
    }

    @Test func sixelOutputIsADeviceControlString() throws {
        let output = TerminalImageRenderer(imageProtocol: .sixel).render(image, fittingIn: box)
        let start = try #require(output.range(of: "\(escape)P"))
        let afterIntroducer = output[start.upperBound...]
        // ESC P <numeric parameters> q <sixel data> ESC \
        let q = try #require(afterIntroducer.firstIndex(of: "q"))
        let parameters = afterIntroducer[..<q]
        let numericParameters = parameters.allSatisfy { $0.isNumber || $0 == ";" }
        #expect(numericParameters, "DCS parameters: \(parameters)")
        #expect(output.hasSuffix("\(escape)\\") || output.contains("\(escape)\\"))
    }

    @Test(arguments: [TerminalColors.trueColor, .indexed256])
    func symbolsAreDrawnAndDifferBetweenImages(_ colors: TerminalColors) {
        let renderer = TerminalImageRenderer(imageProtocol: .symbols, colors: colors)
        let first = renderer.render(image, fittingIn: box)
        let second = renderer.render(TestImages.gradient(width: 160, height: 120, seed: 1), fittingIn: box)
        #expect(!first.isEmpty)
        #expect(first != second)
        #expect(first.contains(escape))
        // 160×120 in 40×20 cells at 1:2 cells: 40 columns by 15 rows.
        #expect(first.split(separator: "\n").count == 15)
    }

    @Test func halfBlocksUseOnlyHalfBlocksAndSpaces() {
        let renderer = TerminalImageRenderer(imageProtocol: .symbols, colors: .trueColor, symbols: .halfBlocks)
        let output = renderer.render(image, fittingIn: box)
        let visible = output.replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "").filter { $0 != "\n" }
        #expect(!visible.isEmpty)
        let onlyBlocks = visible.allSatisfy { "▀▄▌▐█ ".contains($0) }
        #expect(onlyBlocks, "\(Set(visible))")
    }

    /// The default is chafa's own ("block+border+space-wide-inverted"): a photo's preview
    /// is blocks and box drawing, never text. Every symbol (`.all`) draws letters, digits,
    /// braille and double-width kana in a detailed image; this image makes it do so, so
    /// the check below would fail if the default went back to `.all`.
    @Test func defaultSymbolsAreChafasStandardSetWithNoTextLikeSymbols() {
        let detailed = TestImages.noise(width: 320, height: 240)
        let standard = TerminalImageRenderer(imageProtocol: .symbols)
        #expect(standard.symbols == .standard)
        let textLike = { (output: String) -> [Character] in
            output.replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "").filter { character in
                guard let scalar = character.unicodeScalars.first else { return false }
                return character.isLetter || character.isNumber || character.isPunctuation
                    || (0x2800...0x28FF).contains(scalar.value) || scalar.value >= 0x3000
            }
        }
        let drawn = standard.render(detailed, fittingIn: box)
        #expect(drawn.contains("\n") && drawn.contains(escape))
        let fromStandard = textLike(drawn)
        #expect(fromStandard.isEmpty, "\(Set(fromStandard))")
        let fromAll = textLike(TerminalImageRenderer(imageProtocol: .symbols, symbols: .all).render(detailed, fittingIn: box))
        #expect(!fromAll.isEmpty, "every symbol drew no text-like symbol: the image is not detailed enough")
    }

    @Test func monochromeSymbolsHaveNoEscapeSequences() {
        let renderer = TerminalImageRenderer.forTerminal(
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], isTerminal: true)
        #expect(renderer.imageProtocol == .symbols && renderer.colors == .monochrome)
        let output = renderer.render(image, fittingIn: box)
        #expect(!output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(!output.contains(escape))
    }

    @Test("NO_COLOR counts only with a value (no-color.org); TERM=dumb draws symbols without colour")
    func colourDetection() {
        #expect(TerminalColors.detect(environment: ["NO_COLOR": "1"]) == .monochrome)
        #expect(TerminalColors.detect(environment: ["NO_COLOR": ""]) == .indexed256)
        #expect(TerminalColors.detect(environment: ["NO_COLOR": "", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(TerminalColors.detect(environment: ["TERM": "dumb", "COLORTERM": "truecolor"]) == .monochrome)
    }

    @Test func noneRendersNothing() {
        #expect(TerminalImageRenderer(imageProtocol: .none).render(image, fittingIn: box) == "")
        let piped = TerminalImageRenderer.forTerminal(
            environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], isTerminal: false, requested: .kitty)
        #expect(piped.render(image, fittingIn: box) == "")
    }

    @Test func detectionFromTheEnvironment() {
        func detect(_ environment: [String: String], terminal: Bool = true) -> ImageProtocol {
            ImageProtocol.detect(environment: environment, isTerminal: terminal)
        }
        #expect(detect(["TERM": "xterm-kitty"], terminal: false) == .none)
        #expect(detect(["TERM": "dumb"]) == .none)
        #expect(detect([:]) == .none)
        #expect(detect(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"]) == .kitty)
        #expect(detect(["TERM": "xterm-kitty"]) == .kitty)
        #expect(detect(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(detect(["TERM": "mlterm"]) == .sixel)
        #expect(detect(["TERM": "foot"]) == .sixel)
        #expect(detect(["TERM": "xterm-256color"]) == .symbols)
        #expect(ImageProtocol.sixel.resolved(environment: ["TERM": "xterm"], isTerminal: true) == .sixel)
        #expect(ImageProtocol.auto.resolved(environment: ["TERM": "xterm"], isTerminal: true) == .symbols)
        #expect(TerminalColors.detect(environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(TerminalColors.detect(environment: [:]) == .indexed256)
    }
}
