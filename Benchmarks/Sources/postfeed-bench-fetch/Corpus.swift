import Foundation

/// 1000 image-sized files (5–300 KB of incompressible bytes), the same on every run.
struct Corpus {
    let root: URL
    let sizes: [Int]

    var totalBytes: Int { sizes.reduce(0, +) }

    static func name(_ index: Int) -> String { String(format: "img-%04d.jpg", index) }

    /// Writes the files to `root/files/`.
    static func generate(count: Int, into root: URL) throws -> Corpus {
        let folder = root.appendingPathComponent("files", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 0x5057_4644)  // "PWFD"
        var sizes: [Int] = []
        for index in 0..<count {
            let size = 5 * 1024 + Int(random.next() % UInt64(295 * 1024 + 1))
            var bytes = [UInt8](repeating: 0, count: size)
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset + 8 <= size {
                    buffer.storeBytes(of: random.next(), toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                while offset < size {
                    buffer[offset] = UInt8(truncatingIfNeeded: random.next())
                    offset += 1
                }
            }
            try Data(bytes).write(to: folder.appendingPathComponent(name(index)))
            sizes.append(size)
        }
        return Corpus(root: root, sizes: sizes)
    }
}

/// A tiny seeded generator (Vigna's SplitMix64), so the corpus is reproducible.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
