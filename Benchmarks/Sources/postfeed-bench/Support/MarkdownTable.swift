import Foundation

/// A Markdown table, printed row by row as results arrive.
struct MarkdownTable {
    let columns: [String]
    /// `true` for right-aligned (numeric) columns.
    let rightAligned: [Bool]

    /// Column titles, each with `true` when its values are right-aligned (numbers).
    init(_ columns: [(String, Bool)]) {
        self.columns = columns.map(\.0)
        self.rightAligned = columns.map(\.1)
    }

    func printHeader() {
        print("| " + columns.joined(separator: " | ") + " |")
        print("|" + rightAligned.map { $0 ? "---:" : "---" }.joined(separator: "|") + "|")
        fflush(nil)  // every output stream: piped, stdout is block-buffered; rows appear as they are made
    }

    func printRow(_ cells: [String]) {
        print("| " + cells.joined(separator: " | ") + " |")
        fflush(nil)  // every output stream: piped, stdout is block-buffered; rows appear as they are made
    }
}

enum BenchFormat {
    static func milliseconds(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.2f ms", seconds * 1000) : String(format: "%.1f ms", seconds * 1000)
    }

    static func microseconds(_ seconds: Double) -> String {
        String(format: "%.1f µs", seconds * 1e6)
    }

    static func nanoseconds(_ value: Double) -> String {
        String(format: "%.1f ns", value)
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    static func mebibytes(_ kibibytes: Int) -> String {
        String(format: "%.1f MiB", Double(kibibytes) / 1024)
    }

    static func count(_ value: Int) -> String {
        value >= 1000 && value % 1000 == 0 ? "\(value / 1000)k" : "\(value)"
    }

    static func bytes(_ value: Int) -> String {
        value >= 1024 && value % 1024 == 0 ? "\(value / 1024) KiB" : "\(value) B"
    }

    /// `met` / `missed` for a target check.
    static func verdict(_ met: Bool) -> String { met ? "met" : "**missed**" }
}
