import SuiteSupport
import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache crash safety", .serialized)
struct DiskCacheCrashTests {
    @Test("SIGKILL at random moments never leaves a torn entry visible, nor loses an acknowledged one",
          .timeLimit(.minutes(5)))
    func killDuringWrites() async throws {
        let directory = try TemporaryDirectory()
        var acknowledged = 0
        for round in 0..<20 {
            // Given a writer storing 0.5–4 MiB entries in a loop; odd rounds with a limit
            // small enough that trims run too
            let trimming = !round.isMultiple(of: 2)
            let limit = trimming ? 12 << 20 : 1 << 30
            let (process, output) = try StressProcess.start(["write", directory.url.path, String(limit)])

            // When it is killed at a random moment
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...400)))
            kill(process.processIdentifier, SIGKILL)
            await StressProcess.waitForExit(process)
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the writer stopped by itself")
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stored = Set(printed.split(separator: "\n").compactMap { line in
                line.hasPrefix("stored ") ? String(line.dropFirst(7)) : nil
            })
            acknowledged += stored.count

            // Then every entry in the directory verifies…
            let cache = try DiskCache(directory: directory.url, configuration: .init(sizeLimit: 1 << 30, warningHandler: { _ in }))
            let report = cache.verify()
            #expect(report.isClean, "round \(round): \(report.problems)")
            // …and, with no trims, every entry the writer reported stored is there and whole
            if !trimming {
                for key in stored {
                    let entry = cache.entry(forKey: key)
                    #expect(entry != nil, "round \(round): acknowledged \(key) is missing")
                    if let entry { #expect(StressBodyCheck.problem(in: entry, key: key) == nil) }
                }
            }
        }
        #expect(acknowledged > 0, "the writer never got going: the test proved nothing")

        // And the crashed writers' temporary files are swept once stale, never read as entries
        let later = try DiskCache(directory: directory.url, configuration: .init(
            sizeLimit: 1 << 30, now: { Date().addingTimeInterval(3600) }, warningHandler: { _ in }))
        let leftovers = later.statistics().temporaryFiles
        #expect(later.prune().temporaryFilesRemoved == leftovers)
        #expect(later.statistics().temporaryFiles == 0)
        #expect(later.verify().isClean)
    }
}
