import Foundation

/// This process's memory as the kernel reports it in `/proc/self/status`.
struct ProcessMemory: Sendable {
    /// Peak resident set size (`VmHWM`), KiB.
    var peakResidentKiB: Int
    /// Current resident set size (`VmRSS`), KiB.
    var residentKiB: Int

    static func current() -> ProcessMemory {
        var memory = ProcessMemory(peakResidentKiB: 0, residentKiB: 0)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return memory }
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "VmHWM:" { memory.peakResidentKiB = value }
            if fields[0] == "VmRSS:" { memory.residentKiB = value }
        }
        return memory
    }
}
