import FoundationEssentials
import Glibc
import PostFeedImaging

// `postfeed-bench-preview`: one terminal preview of an image file, written to standard
// output, the way PostFeed draws it (ImageDecoder scaled for the box, then
// TerminalImageRenderer): the PostFeed side of scripts/bench-images.sh, timed as a whole
// process against the `chafa` command on the same file and size. No argument parser on
// purpose: process start-up is part of what is measured.
//
//   postfeed-bench-preview FILE [--size 40x20] [--format symbols|kitty] [--cell 10x20] [--full-decode]
//   postfeed-bench-preview --time FILE [--size 40x20] [--format symbols|kitty] [--runs 20]
//   postfeed-bench-preview --generate DIR
//
// --cell sets one cell's size in pixels (default 10x20, the renderer's): what kitty is
// sent per cell. --full-decode decodes at the original's size first (then downscales): the contrast for
// the peak-memory table. --time prints decode and render times measured in-process, as
// a Markdown table row. --generate writes the benchmark's images (BenchImages.swift).

let usage = """
    usage: postfeed-bench-preview FILE [--size COLSxROWS] [--format symbols|kitty] [--cell WxH] [--full-decode]
           postfeed-bench-preview --time FILE [--size COLSxROWS] [--format symbols|kitty] [--runs N]
           postfeed-bench-preview --generate DIR
    """

func fail(_ message: String) -> Never {
    var line = "postfeed-bench-preview: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options = PreviewOptions()
var timing = false
var runs = 20
var positional: [String] = []
var generateInto: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)") }
        return arguments.removeFirst()
    }
    switch argument {
    case "--size":
        let text = value()
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (1...1000).contains($0) }) else { fail("--size \(text): want COLSxROWS, e.g. 40x20") }
        options.cells = PixelSize(width: parts[0], height: parts[1])
    case "--cell":
        let text = value()
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (1...100).contains($0) }) else { fail("--cell \(text): want WxH in pixels, e.g. 8x8") }
        options.cellPixelSize = PixelSize(width: parts[0], height: parts[1])
    case "--format":
        let text = value()
        guard let format = ImageProtocol(rawValue: text), format == .symbols || format == .kitty else {
            fail("--format \(text): want symbols or kitty")
        }
        options.format = format
    case "--full-decode": options.fullDecode = true
    case "--time": timing = true
    case "--runs":
        let text = value()
        guard let count = Int(text), (1...10_000).contains(count) else { fail("--runs \(text): want 1…10000") }
        runs = count
    case "--generate": generateInto = value()
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        positional.append(argument)
    }
}

do {
    if let directory = generateInto {
        for written in try BenchImages.write(into: URL(fileURLWithPath: directory)) { print(written) }
    } else {
        guard positional.count == 1, let path = positional.first else { fail(usage) }
        let data: Data
        do {
            // Mapped, not read: the bytes are decoded where the page cache has them (as
            // chafa's loaders do), without a copy of the file into fresh memory.
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            fail("cannot read \(path): \(error)")
        }
        if timing {
            try InProcessTiming.run(data, options: options, runs: runs, name: URL(fileURLWithPath: path).lastPathComponent)
        } else {
            var output = try Preview.draw(data, options: options)
            output.withUTF8 { text in
                guard let base = text.baseAddress else { return }
                var written = 0
                while written < text.count {
                    let count = write(STDOUT_FILENO, base + written, text.count - written)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { fail("cannot write the preview: \(String(cString: strerror(errno)))") }
                    written += count
                }
            }
        }
    }
} catch {
    fail("\(error)")
}
