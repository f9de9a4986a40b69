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
/// report: whether an Adobe APP14 marker is there.
enum JPEGMarkers {
    /// True when a marker segment before the first scan is an Adobe APP14 marker (as
    /// libjpeg recognizes it: at least 12 bytes, starting "Adobe").
    static func hasAdobeMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let adobe: [UInt8] = Array("Adobe".utf8)
        var index = 2  // after SOI
        while index < bytes.count {
            guard bytes[index] == 0xFF else { return false }
            // Any number of 0xFF fill bytes may precede a marker code.
            var codeIndex = index + 1
            while codeIndex < bytes.count, bytes[codeIndex] == 0xFF { codeIndex += 1 }
            guard codeIndex < bytes.count else { return false }
            let code = bytes[codeIndex]
            switch code {
            case 0xDA, 0xD9:  // start of scan, end of image: no more header segments
                return false
            case 0x01, 0xD0...0xD8:  // standalone markers: no length
                index = codeIndex + 1
                continue
            default:
                break
            }
            guard codeIndex + 2 < bytes.count else { return false }
            let length = Int(bytes[codeIndex + 1]) << 8 | Int(bytes[codeIndex + 2])
            guard length >= 2 else { return false }
            let body = codeIndex + 3
            if code == 0xEE, length - 2 >= 12, body + adobe.count <= bytes.count,
               bytes[body..<body + adobe.count].elementsEqual(adobe) {
                return true
            }
            index = codeIndex + 1 + length
        }
        return false
    }
}
