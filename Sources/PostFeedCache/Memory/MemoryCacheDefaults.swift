import Foundation

/// The default limits of ``MemoryCache``.
///
/// - ``countLimit``: 100 entries (DESIGN.md: "memory cache 100 images or its byte limit,
///   whichever comes first").
/// - ``totalCostLimit``: 15 % of the memory this process may really use — the smaller of
///   physical memory and the cgroup limit — clamped to 16 MiB … 512 MiB. On a 4 GiB
///   machine that is 512 MiB; in a container limited to 256 MiB it is 38.4 MiB.
/// - ``maximumEntryCostRatio``: 10 %: one entry may take at most a tenth of the budget.
public enum MemoryCacheDefaults {
    /// 100 entries.
    public static let countLimit = 100

    /// Share of the effective memory used for the byte limit: 15 %.
    public static let memoryShare = 0.15

    /// Lower bound of the derived byte limit: 16 MiB.
    public static let minimumTotalCostLimit = 16 << 20

    /// Upper bound of the derived byte limit: 512 MiB.
    public static let maximumTotalCostLimit = 512 << 20

    /// 10 % of ``totalCostLimit`` per entry.
    public static let maximumEntryCostRatio = 0.1

    /// The byte limit for this machine or container, computed once per process.
    public static let totalCostLimit: Int = totalCostLimit(
        physicalMemory: ProcessInfo.processInfo.physicalMemory,
        cgroupLimit: MemoryLimit.cgroupLimit()
    )

    /// The byte limit for a given physical memory and optional cgroup limit (both bytes):
    /// `clamp(0.15 × min(physical, cgroup), 16 MiB, 512 MiB)`.
    public static func totalCostLimit(physicalMemory: UInt64, cgroupLimit: UInt64?) -> Int {
        var effective = physicalMemory
        if let cgroupLimit, cgroupLimit > 0, cgroupLimit < effective || effective == 0 {
            effective = cgroupLimit
        }
        let share = Double(effective) * memoryShare
        let clamped = min(max(share, Double(minimumTotalCostLimit)), Double(maximumTotalCostLimit))
        return Int(clamped)
    }
}

/// Reads the memory limit a Linux control group puts on this process.
enum MemoryLimit {
    /// cgroup v2 (`memory.max`), then v1 (`memory.limit_in_bytes`).
    static let defaultFiles = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]

    /// The first real limit found in `files`, or `nil` when none applies.
    ///
    /// v2 writes `max` for "unlimited"; v1 writes a huge number (about 2^63 rounded to a
    /// page), which any real comparison with physical memory discards anyway.
    static func cgroupLimit(files: [String] = defaultFiles) -> UInt64? {
        for path in files {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if value == "max" { return nil }
            if let bytes = UInt64(value), bytes > 0 { return bytes }
        }
        return nil
    }
}
