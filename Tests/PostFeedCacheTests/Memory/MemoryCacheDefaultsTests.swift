import Foundation
import Testing
@testable import PostFeedCache

@Suite("MemoryCache defaults")
struct MemoryCacheDefaultsTests {
    @Test("The count limit is 100 images, as DESIGN.md says")
    func countLimit() {
        #expect(MemoryCacheDefaults.countLimit == 100)
        #expect(MemoryCache<String, Int>().countLimit == 100)
    }

    static let limitCases: [(physical: UInt64, cgroup: UInt64?, expected: Int)] = [
        (physical: 1 << 30, cgroup: nil, expected: Int(Double(1 << 30) * 0.15)),            // 1 GiB → 153.6 MiB
        (physical: 16 << 30, cgroup: nil, expected: 512 << 20),                             // capped
        (physical: 16 << 30, cgroup: 256 << 20, expected: Int(Double(256 << 20) * 0.15)),   // container limit wins
        (physical: 16 << 30, cgroup: 32 << 20, expected: 16 << 20),                         // floor
        (physical: 1 << 30, cgroup: 64 << 30, expected: Int(Double(1 << 30) * 0.15)),       // cgroup above RAM ignored
    ]

    @Test("The byte limit is 15 % of the smaller of physical memory and the cgroup limit, clamped",
          arguments: limitCases)
    func byteLimit(limitCase: (physical: UInt64, cgroup: UInt64?, expected: Int)) {
        let limit = MemoryCacheDefaults.totalCostLimit(physicalMemory: limitCase.physical, cgroupLimit: limitCase.cgroup)
        #expect(limit == limitCase.expected)
    }

    @Test("cgroup files: v2 'max' means no limit, a number is a limit, v1 is read when v2 is absent")
    func cgroupFiles() throws {
        let directory = try TemporaryDirectory()
        let v2 = directory.appending("memory.max")
        let v1 = directory.appending("memory.limit_in_bytes")
        let missing = directory.appending("absent").path

        try Data("max\n".utf8).write(to: v2)
        #expect(MemoryLimit.cgroupLimit(files: [v2.path, v1.path]) == nil)

        try Data("268435456\n".utf8).write(to: v2)
        #expect(MemoryLimit.cgroupLimit(files: [v2.path, v1.path]) == 268_435_456)

        try Data("536870912\n".utf8).write(to: v1)
        #expect(MemoryLimit.cgroupLimit(files: [missing, v1.path]) == 536_870_912)

        try Data("garbage".utf8).write(to: v1)
        #expect(MemoryLimit.cgroupLimit(files: [missing, v1.path]) == nil)
    }

    @Test("The process-wide default lies within the documented bounds")
    func processDefaultWithinBounds() {
        let limit = MemoryCacheDefaults.totalCostLimit
        #expect(limit >= MemoryCacheDefaults.minimumTotalCostLimit)
        #expect(limit <= MemoryCacheDefaults.maximumTotalCostLimit)
    }
}
