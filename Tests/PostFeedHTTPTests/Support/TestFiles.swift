import Foundation

/// The files nginx serves under `/files/`, generated into a temporary document root.
/// Contents are deterministic, so a test can compare a response with the original.
enum TestFiles {
    /// Name and size of every generated binary file.
    static let binarySizes: [(name: String, size: Int)] = [
        ("empty.bin", 0),
        ("1b.bin", 1),
        ("1k.bin", 1024),
        ("32k.bin", 32 * 1024),
        ("100k.bin", 100 * 1024),
        ("1m.bin", 1024 * 1024),
        ("5m.bin", 5 * 1024 * 1024),
    ]
    static let hello = Data("Hello, PostFeed!\n".utf8)
    /// Compressible text for the gzip tests.
    static let lorem = Data(
        String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 4000).utf8)

    /// Bytes from a seeded xorshift generator: the same `seed` and `count` always give
    /// the same data, and they do not compress.
    static func pseudoRandomBytes(count: Int, seed: UInt64) -> Data {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return Data(bytes)
    }

    static func binary(named name: String) -> Data? {
        guard let size = binarySizes.first(where: { $0.name == name })?.size else { return nil }
        return pseudoRandomBytes(count: size, seed: UInt64(size) &+ 0x9E37_79B9)
    }

    /// Writes every file into `root/files/` (and `root/conn/`, for the connection log).
    static func generate(into root: URL) throws {
        let files = root.appendingPathComponent("files", isDirectory: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try hello.write(to: files.appendingPathComponent("hello.txt"))
        try lorem.write(to: files.appendingPathComponent("lorem.txt"))
        for (name, _) in binarySizes {
            guard let data = binary(named: name) else { continue }
            try data.write(to: files.appendingPathComponent(name))
        }
    }
}
