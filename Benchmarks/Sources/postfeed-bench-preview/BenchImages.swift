import CBenchEncoders
import FoundationEssentials
import Glibc

/// The benchmark's test images, made deterministically (same bytes on every run and
/// machine with the same libraries): a photo-like scene — a sky gradient, a horizon,
/// soft round shapes — with film grain from a seeded generator, so that neither JPEG nor
/// PNG compresses it unrealistically well.
enum BenchImages {
    /// What `--generate` writes: the 1600×1200 JPEG and 1200×900 PNG, and a
    /// 4800×3600 JPEG for the peak-memory table (a larger original, the same preview).
    static let files: [(name: String, width: Int, height: Int)] = [
        ("photo-1600x1200.jpg", 1600, 1200),
        ("photo-1200x900.png", 1200, 900),
        ("photo-4800x3600.jpg", 4800, 3600),
    ]

    static func write(into directory: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for file in files {
            let pixels = scene(width: file.width, height: file.height)
            let url = directory.appendingPathComponent(file.name)
            if file.name.hasSuffix(".jpg") {
                try jpeg(pixels, width: file.width, height: file.height).write(to: url)
            } else {
                try png(pixels, width: file.width, height: file.height, to: url)
            }
            written.append(url.path)
        }
        return written
    }

    /// RGB8 pixels of the scene.
    static func scene(width: Int, height: Int) -> [UInt8] {
        var random = SplitMix64(state: 0x1717_BEEF)
        // Soft discs: centre (fractions of the size), radius (fraction of the width), colour.
        let discs: [(x: Double, y: Double, r: Double, color: (Double, Double, Double))] = [
            (0.78, 0.22, 0.08, (255, 236, 180)), (0.25, 0.72, 0.18, (60, 120, 50)),
            (0.55, 0.80, 0.12, (140, 90, 60)), (0.10, 0.35, 0.05, (230, 230, 240)),
        ]
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let horizon = Double(height) * 0.58
        for y in 0..<height {
            let fy = Double(y)
            for x in 0..<width {
                let fx = Double(x)
                var color: (Double, Double, Double)
                if fy < horizon {  // sky: deep blue to pale near the horizon
                    let t = fy / horizon
                    color = (70 + 150 * t, 120 + 110 * t, 200 + 40 * t)
                } else {  // ground: green-brown, darker towards the bottom, with soft stripes
                    let t = (fy - horizon) / (Double(height) - horizon)
                    let stripe = 12 * sin(fx / Double(width) * 40 + t * 9)
                    color = (110 - 50 * t + stripe, 140 - 60 * t + stripe, 70 - 30 * t)
                }
                for disc in discs {
                    let dx = fx - disc.x * Double(width), dy = fy - disc.y * Double(height)
                    let radius = disc.r * Double(width)
                    let distance = (dx * dx + dy * dy).squareRoot()
                    // Weight 1 inside, fading to 0 over a fifth of the radius.
                    let weight = min(1, max(0, (radius - distance) / (radius * 0.2)))
                    if weight > 0 {
                        color = (color.0 + (disc.color.0 - color.0) * weight,
                                 color.1 + (disc.color.1 - color.1) * weight,
                                 color.2 + (disc.color.2 - color.2) * weight)
                    }
                }
                let grain = Double(Int(random.next() % 17) - 8)
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: Int(color.0 + grain))
                pixels[offset + 1] = UInt8(clamping: Int(color.1 + grain))
                pixels[offset + 2] = UInt8(clamping: Int(color.2 + grain))
            }
        }
        return pixels
    }

    static func jpeg(_ pixels: [UInt8], width: Int, height: Int) throws -> Data {
        guard let handle = tjInitCompress() else { throw BenchImageError("TurboJPEG could not create a compressor") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), Int32(width * 3), Int32(height),
                        Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), 85, 0)
        }
        guard status == 0, let output else { throw BenchImageError("TurboJPEG could not compress \(width)×\(height)") }
        defer { tjFree(output) }
        return Data(bytes: output, count: Int(size))
    }

    static func png(_ pixels: [UInt8], width: Int, height: Int, to url: URL) throws {
        var image = pf_bench_png_image(UInt32(width), UInt32(height))
        let ok = pixels.withUnsafeBufferPointer { source in
            png_image_write_to_file(&image, url.path, 0, source.baseAddress, Int32(width * 3), nil)
        }
        png_image_free(&image)
        guard ok != 0 else { throw BenchImageError("libpng could not write \(url.path)") }
    }
}

struct BenchImageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// SplitMix64: a tiny seeded generator, so the images are the same on every run.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
