/// CMYK pixels (as TurboJPEG decodes CMYK and YCCK JPEGs) to opaque RGBA, with the naive
/// formula browsers use (R = (1 − C)(1 − K), …): without the file's ICC profile, a colour
/// management system is out of reach, and a preview only needs the colours roughly right.
///
/// Polarity: Adobe Photoshop writes inverted CMYK (0 is full ink; libjpeg.txt, "CAUTION:
/// it appears that Adobe Photoshop writes inverted data in CMYK JPEG files"), and so does
/// everything that writes the Adobe APP14 marker it brought (libjpeg itself, ImageMagick).
/// A CMYK JPEG with that marker is read as inverted, one without it as plain ink amounts.
struct CMYKConversion {
    /// True for Adobe's inverted CMYK (255 is no ink).
    let inverted: Bool

    /// Turns `pixels`, four bytes of C, M, Y, K each, into R, G, B, 255 in place.
    func convertToRGBA(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            while offset + 3 < buffer.count {
                // "Remaining light" of each ink and of black: 255 is none of it.
                let k = light(buffer[offset + 3])
                buffer[offset] = Self.product(light(buffer[offset]), k)
                buffer[offset + 1] = Self.product(light(buffer[offset + 1]), k)
                buffer[offset + 2] = Self.product(light(buffer[offset + 2]), k)
                buffer[offset + 3] = 255
                offset += 4
            }
        }
    }

    private func light(_ ink: UInt8) -> Int { inverted ? Int(ink) : 255 - Int(ink) }

    /// a × b / 255, rounded: at most 255 for a, b in 0…255.
    private static func product(_ a: Int, _ b: Int) -> UInt8 {
        UInt8(clamping: (a * b + 127) / 255)
    }
}

/// The JPEG marker segments before the scan, read only to find what TurboJPEG does not
/// report: whether an Adobe APP14 marker is there, and the frame size of a header it
/// refuses.
enum JPEGMarkers {
    /// True when a marker segment before the first scan is an Adobe APP14 marker (as
    /// libjpeg recognizes it: at least 12 bytes, starting "Adobe").
    static func hasAdobeMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let adobe: [UInt8] = Array("Adobe".utf8)
        return firstSegment(bytes) { code, body in
            code == 0xEE && body.count >= 12 && body.prefix(adobe.count).elementsEqual(adobe)
        } != nil
    }

    /// The width and height of the first frame header (SOF0…SOF15), or nil.
    static func frameSize(_ bytes: UnsafeBufferPointer<UInt8>) -> PixelSize? {
        // Not C4 (DHT), C8 (JPG) or CC (DAC), which share the range.
        let frame = firstSegment(bytes) { code, body in
            (0xC0...0xCF).contains(code) && ![0xC4, 0xC8, 0xCC].contains(code) && body.count >= 5
        }
        guard let body = frame?.body else { return nil }
        let start = body.startIndex
        return PixelSize(width: Int(body[start + 3]) << 8 | Int(body[start + 4]),
                         height: Int(body[start + 1]) << 8 | Int(body[start + 2]))
    }

    /// The first segment before the scan (its marker code and body, clipped to the bytes
    /// there are) that `matches`.
    private static func firstSegment(
        _ bytes: UnsafeBufferPointer<UInt8>, where matches: (UInt8, Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    ) -> (code: UInt8, body: Slice<UnsafeBufferPointer<UInt8>>)? {
        var index = 2  // after SOI
        while index < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker code.
            var codeIndex = index + 1
            while codeIndex < bytes.count, bytes[codeIndex] == 0xFF { codeIndex += 1 }
            guard codeIndex < bytes.count else { return nil }
            let code = bytes[codeIndex]
            switch code {
            case 0xDA, 0xD9:  // start of scan, end of image: no more header segments
                return nil
            case 0x01, 0xD0...0xD8:  // standalone markers: no length
                index = codeIndex + 1
                continue
            default:
                break
            }
            guard codeIndex + 2 < bytes.count else { return nil }
            let length = Int(bytes[codeIndex + 1]) << 8 | Int(bytes[codeIndex + 2])
            guard length >= 2 else { return nil }
            let start = codeIndex + 3
            let body = bytes[start..<min(start + length - 2, bytes.count)]
            if matches(code, body) { return (code, body) }
            index = codeIndex + 1 + length
        }
        return nil
    }
}
