import Foundation
import PostFeedImaging

/// The most pixels a fuzzed header may declare: 1 megapixel (4 MB of RGBA). The product's
/// limit is 100 megapixels; checking the header against a limit is the same code whatever
/// the number, and a lower one keeps libFuzzer from spending its time (and its memory
/// limit) decoding legitimately large images of mostly filler.
public let fuzzPixelLimit = 1 << 20

/// Preview boxes in pixels, picked by the input's length so that one corpus reaches every
/// DCT scaling factor and libwebp's scaler: a 1×1 thumbnail, a terminal cell's 8×8 symbols
/// of a small box, the 40×20-cell preview, a kitty preview, and odd aspect ratios.
let previewBoxes = [
    PixelSize(width: 1, height: 1), PixelSize(width: 7, height: 3), PixelSize(width: 64, height: 48),
    PixelSize(width: 320, height: 160), PixelSize(width: 400, height: 400), PixelSize(width: 3, height: 500),
]

/// Decodes the fuzzer's input the ways the product does: `ImageDecoder.size(of:)` (the
/// header alone), `decode(_:fittingIn:)` (sniffed, decoded scaled by the library,
/// area-averaged to fit), `decode(_:toRender:)` (a preview's pixels: the library's own
/// scaling only), and `decode(_:as:)` at full size with the format forced
/// (so the wrapper also sees bytes that do not sniff as `format`). Every call either
/// returns or throws a one-line `ImageDecodingError`; what it returns must be consistent
/// with the header. One input in four has its preview drawn in a terminal box of a few
/// cells, as `show` and `browse` do.
public func fuzzImageDecoding(_ format: ImageFormat, _ input: UnsafeRawBufferPointer) {
    let data = Data(input)
    let decoder = ImageDecoder(maximumPixelCount: fuzzPixelLimit)
    let box = previewBoxes[input.count % previewBoxes.count]

    let header: PixelSize?
    do {
        header = try decoder.size(of: data)
    } catch {
        checkMessage(error)
        header = nil
    }

    do {
        let preview = try decoder.decode(data, fittingIn: box)
        precondition(header != nil, "decoded a \(preview.size) preview of an image whose header did not read")
        precondition(preview.width <= box.width && preview.height <= box.height,
                      "preview \(preview.size) does not fit in \(box)")
        precondition(preview.width > 0 && preview.height > 0, "empty preview \(preview.size)")
        // One input in four goes on to the terminal, as a preview does: the decoded pixels
        // (any aspect ratio, 1×N included) drawn into a few cells (symbols by libchafa,
        // kitty by KittyGraphics).
        if input.count % 4 == 0 { render(preview, seed: input.count / 4) }
    } catch {
        checkMessage(error)
    }

    // What previews hand the renderer (`decode(_:toRender:)`): the decoder's own scaling,
    // covering the fitted size (up to about twice it each way for JPEG), never past the
    // header's size; one input in four drawn (libchafa scales the rest for symbols).
    do {
        let pixels = try decoder.decode(data, toRender: box)
        precondition(header != nil, "decoded \(pixels.size) to render an image whose header did not read")
        precondition(pixels.width > 0 && pixels.height > 0, "empty pixels to render, \(pixels.size)")
        if let header {
            precondition(pixels.width <= header.width && pixels.height <= header.height,
                          "\(pixels.size) to render is larger than the image, \(header)")
            // At most the next DCT factor up (about twice the fit), or TurboJPEG's smallest,
            // 1/8, when even that is larger than the fit.
            let fitted = header.fitting(in: box)
            let widest = max(fitted.width * 2 + 1, (header.width + 7) / 8)
            let tallest = max(fitted.height * 2 + 1, (header.height + 7) / 8)
            precondition(pixels.width <= widest && pixels.height <= tallest,
                          "\(pixels.size) to render for a fit of \(fitted) of \(header): not bounded by the box")
        }
        if input.count % 4 == 1 { render(pixels, seed: input.count / 4) }
    } catch {
        checkMessage(error)
    }

    // PNG previews read on two threads (pf_png_rows) whatever their size: the same pixels
    // as libpng's one-thread reader, or both fail.
    if format == .png {
        var twoThreads = decoder
        twoThreads.twoThreadPNGPixelCount = 0
        var oneThread = decoder
        oneThread.twoThreadPNGPixelCount = .max
        let split = Result { () throws(ImageDecodingError) in try twoThreads.decode(data, fittingIn: box) }
        let single = Result { () throws(ImageDecodingError) in try oneThread.decode(data, fittingIn: box) }
        switch (split, single) {
        case (.success(let a), .success(let b)):
            precondition(a == b, "two-thread PNG rows differ from libpng's")
        case (.failure(let error), .success):
            // A failed two-thread read falls back on libpng's: never stricter than it.
            preconditionFailure("two threads refused a PNG libpng decodes: \(error.message)")
        case (.success, .failure(let error)):
            preconditionFailure("two threads decoded a PNG libpng refuses: \(error.message)")
        case (.failure(let error), .failure):
            checkMessage(error)
        }
    }

    do {
        let full = try decoder.decode(data, as: format)
        if ImageFormat(sniffing: data) == format {
            precondition(full.size == header, "decoded \(full.size), the header says \(String(describing: header))")
        }
        precondition(full.size.pixelCount <= fuzzPixelLimit, "decoded \(full.size) over the limit")
    } catch {
        checkMessage(error)
    }
}

/// Draws `image` with symbols or kitty into a small box of cells picked by `seed`.
private func render(_ image: RGBAImage, seed: Int) {
    let renderer = TerminalImageRenderer(imageProtocol: seed % 2 == 0 ? .symbols : .kitty)
    let box = PixelSize(width: 1 + seed % 13, height: 1 + seed % 7)
    let cells = renderer.cells(for: image.size, fittingIn: box)
    precondition(cells.width >= 1 && cells.height >= 1 && cells.width <= box.width && cells.height <= box.height,
                  "\(image.size) drawn in \(cells) cells, the box is \(box)")
    let output = renderer.render(image, fittingIn: box)
    precondition(!output.isEmpty, "nothing drawn for \(image.size) in \(box)")
    if renderer.imageProtocol == .kitty { checkKitty(output, cells: cells, box: renderer.pixelBox(forCells: box)) }
}

/// A kitty transmission: chunks of at most 4096 characters, `m=1` on all but the last,
/// `c`×`r` the drawn cells, and the joined payload one base64 text of `s`×`v` pixels of 3
/// (`f=24`) or 4 (`f=32`) bytes, at most the box's pixels.
private func checkKitty(_ output: String, cells: PixelSize, box: PixelSize) {
    let commands = output.split(separator: "\u{1B}_G", omittingEmptySubsequences: true)
    var keys: [Substring: Int] = [:]
    var payload = ""
    for (index, command) in commands.enumerated() {
        precondition(command.hasSuffix("\u{1B}\\"), "kitty command \(index) not terminated")
        let body = command.dropLast(2)
        let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        for pair in parts[0].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            if keyValue.count == 2, index == 0 { keys[keyValue[0]] = Int(keyValue[1]) }
            if keyValue.count == 2, keyValue[0] == "m" {
                precondition(Int(keyValue[1]) == (index == commands.count - 1 ? 0 : 1), "m on kitty command \(index)")
            }
        }
        let chunk = parts.count == 2 ? parts[1] : ""
        precondition(chunk.utf8.count <= 4096 && (index == commands.count - 1 || chunk.utf8.count == 4096),
                     "kitty chunk \(index) of \(chunk.utf8.count) bytes")
        payload += chunk
    }
    guard let width = keys["s"], let height = keys["v"], let format = keys["f"], let decoded = Data(base64Encoded: payload) else {
        preconditionFailure("kitty keys \(keys) or a payload that is not base64")
    }
    precondition(format == 24 || format == 32, "kitty f=\(format)")
    precondition(decoded.count == width * height * format / 8, "kitty payload of \(decoded.count) bytes for \(width)×\(height)")
    precondition(width <= box.width && height <= box.height, "kitty sent \(width)×\(height) for a box of \(box)")
    precondition(keys["c"] == cells.width && keys["r"] == cells.height, "kitty c/r \(keys) for \(cells)")
}

/// Errors are one line and say something.
private func checkMessage(_ error: ImageDecodingError) {
    precondition(!error.message.isEmpty && !error.message.contains(where: \.isNewline),
                 "not a one-line message: \(error.message)")
}
