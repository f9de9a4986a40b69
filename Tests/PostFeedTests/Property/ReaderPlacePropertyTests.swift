import Foundation
@testable import PostFeed
import PostFeedServer
import Testing

/// Random sequences of what readers, a second process and the world do, run in-process
/// against fixture backends that grow and shrink, checked after every step against what
/// must hold (issue "The reader's place survives everything").
///
/// A failing sequence is shrunk (operations dropped while it still fails) and printed
/// with its seed. Rerun one seed with `POSTFEED_PLACE_SEED=<seed> swift test --filter ReaderPlaceProperty`.
@Suite("the reader's place, property-based")
struct ReaderPlacePropertyTests {
    static let sequences = 1_000
    static let operationsPerSequence = 8
    /// The sequences run in this many chunks, each on a world (servers, cache root) of its
    /// own, side by side: a sequence waits on its servers far more than it computes.
    static let chunks = 8

    @Test(
        "1000 random sequences keep the invariants: nothing lost silently, anchors valid, round trips return",
        arguments: 0..<chunks)
    func randomSequences(chunk: Int) async throws {
        try await Self.runSequences(chunk: chunk, count: Self.sequences, firstSeed: 0x9_1ACE_0000, generate: PlaceOperation.random)
    }

    @Test(
        "400 random sequences with browse-like sessions (loading ahead, the catalog walk, a subset shown, popularity views): after each step the next list starts right after the last post shown",
        arguments: 0..<chunks)
    func browseLikeSequences(chunk: Int) async throws {
        try await Self.runSequences(chunk: chunk, count: 400, firstSeed: 0xB_0000_0000, generate: PlaceOperation.randomWithBrowse)
    }

    private static func runSequences(
        chunk: Int, count: Int, firstSeed: UInt64,
        generate: (inout SplitMix64, Int) -> PlaceOperation
    ) async throws {
        let world = try await PlaceWorld.start()
        defer { Task { await world.stop() } }
        let allSeeds = (0..<UInt64(count)).map { firstSeed + $0 }
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["POSTFEED_PLACE_SEED"].flatMap(UInt64.init)
            .map { chunk == 0 ? [$0] : [] }
            ?? allSeeds.enumerated().filter { $0.offset % Self.chunks == chunk }.map(\.element)
        var operationsRun = 0
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            let operations = (0..<Self.operationsPerSequence).map { _ in
                generate(&random, PlaceWorld.sizes.count)
            }
            operationsRun += operations.count
            guard let violation = try await Self.run(operations, in: world) else { continue }
            let shrunk = try await Self.shrink(operations, in: world)
            let steps = shrunk.operations.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
            let report = "seed \(seed): \(violation.message)\nshrunk to \(shrunk.operations.count) operations "
                + "(failing with: \(shrunk.violation.message)):\n\(steps)"
            Issue.record("\(report)")
            return
        }
        #expect(operationsRun == seeds.count * Self.operationsPerSequence)
        #expect(seeds.count * Self.chunks >= count || seeds.count <= 1)
    }

    // MARK: Running and checking

    struct Violation: Error {
        var step: Int
        var message: String
    }

    /// Runs `operations` on a fresh cache root; the first violated invariant, if any.
    static func run(_ operations: [PlaceOperation], in world: PlaceWorld) async throws -> Violation? {
        world.reset()
        var damaged: Set<ListMode> = []
        for (index, operation) in operations.enumerated() {
            let before = (infinite: world.restored(.infinite), paged: world.restored(.paged), pagedBytes: world.fileBytes(.paged))
            let unusableBefore = Set(ListMode.allCases.filter { world.isUnusable($0) })
            let step = try await operation.perform(in: world)
            if case .damage(let mode, _) = operation, world.isUnusable(mode) { damaged.insert(mode) }
            let fail = { (message: String) in Violation(step: index + 1, message: "after step \(index + 1) (\(operation)): \(message)") }

            // A damaged file is reported by the first run that reads it and succeeds (a run
            // that fails, e.g. on a page past the end, uses and changes nothing), never used.
            for mode in unusableBefore where operation.loads(mode) && step.error == nil {
                if !step.notices.contains(where: { $0.contains(mode.stateFileName) }) {
                    return fail("the unusable \(mode.stateFileName) was read without a word; notices: \(step.notices)")
                }
            }
            for mode in ListMode.allCases where world.isUnusable(mode) && !damaged.contains(mode) {
                return fail("\(mode.stateFileName) became unusable: \(world.state(mode))")
            }
            for mode in ListMode.allCases where world.restored(mode) != nil { damaged.remove(mode) }

            if let problem = anchorProblem(world) { return fail(problem) }
            if let problem = lossProblem(operation, step, before: before.infinite, after: world.restored(.infinite), world: world) {
                return fail(problem)
            }
            if let expected = step.expectedAnchorID, world.restored(.infinite)?.anchor?.postID != expected {
                return fail("list saved the place at \(String(describing: world.restored(.infinite)?.anchor)), not at the top of its last page (id \(expected))")
            }
            if step.error != nil, case .page = operation, world.fileBytes(.paged) != before.pagedBytes {
                return fail("a page that failed (\(step.error ?? "")) changed the paged state")
            }
            if let trip = step.roundTrip, let postID = trip.before, trip.after != postID {
                return fail("a mode round trip moved the reader from post \(postID) to \(String(describing: trip.after))")
            }
            if let problem = mergeProblem(step, after: world.restored(.infinite)) { return fail(problem) }
            if let problem = shownPlaceProblem(operation, step, world: world) { return fail(problem) }
        }
        return nil
    }

    /// The place is what was shown: a `list` starts right after the last post shown in the
    /// backend's order (by `list` or browse-like sessions), and after every step the saved
    /// infinite state would make the next `list` start there. Moves the model on.
    static func shownPlaceProblem(_ operation: PlaceOperation, _ step: PlaceStep, world: PlaceWorld) -> String? {
        let expected = world.nextListStart
        switch operation {
        case .list(_, _, let restart, let unseen):
            guard step.error == nil else { break }
            // A state set aside starts the list over; --unseen may skip hidden posts.
            let setAside = step.notices.contains { $0.contains(".json") }
            if let expected, let printed = step.printed, !restart, !setAside,
               unseen ? printed.first < expected : printed.first != expected
            {
                return "list started at post #\(printed.first + 1), not right after the last post shown (#\(expected))"
            }
            if let printed = step.printed {
                world.nextListStart = printed.last + 1
            } else if restart || setAside {
                world.nextListStart = nil
            }
        case .browse:
            guard step.error == nil else { break }
            if step.notices.contains(where: { $0.contains(".json") }) {
                world.nextListStart = step.browseShownThrough
            } else if let expected, let shown = step.browseShownThrough {
                world.nextListStart = max(expected, shown)
            }
        case .page, .step, .switchMode(.paged, _), .damage(.paged, _):
            break
        default:
            world.nextListStart = nil
        }
        guard let next = world.nextListStart, let state = world.restored(.infinite) else { return nil }
        if state.readLength != next {
            return "the next list would start at post #\(state.readLength + 1), not right after the last post shown (#\(next)); "
                + "\(state.loadedPostIDs.count) loaded, shownLength \(String(describing: state.shownLength))"
        }
        return nil
    }

    /// Anchors name a post of the loaded list (infinite) or of the current page (paged).
    static func anchorProblem(_ world: PlaceWorld) -> String? {
        if let state = world.restored(.infinite), let anchor = state.anchor,
           state.loadedPostIDs.indices.contains(anchor.index), state.loadedPostIDs[anchor.index] != anchor.postID
        {
            return "the infinite anchor \(anchor) does not name the post at its index (\(state.loadedPostIDs[anchor.index]))"
        }
        // A paged state may know only part of its page after a page-size change.
        if let state = world.restored(.paged), let anchor = state.anchor {
            let offset = anchor.index - state.firstLoadedIndex
            if state.loadedPostIDs.indices.contains(offset), state.loadedPostIDs[offset] != anchor.postID {
                return "the paged anchor \(anchor) is not where page \(state.currentPage ?? 0) has it (\(state.loadedPostIDs))"
            }
        }
        return nil
    }

    /// Loaded posts that still exist upstream are never dropped unless the reader asked
    /// (restart, refresh) or the tool said why.
    static func lossProblem(
        _ operation: PlaceOperation, _ step: PlaceStep, before: ListState?, after: ListState?, world: PlaceWorld
    ) -> String? {
        guard let before, !operation.replacesInfiniteList, step.notices.isEmpty else { return nil }
        let live = { (ids: [PostID]) in ids.filter { $0.integerValue.map { (1...world.postCount).contains($0) } ?? false } }
        guard let after else { return "the infinite state with \(before.loadedPostIDs.count) posts is gone, silently" }
        let (kept, now) = (live(before.loadedPostIDs), live(after.loadedPostIDs))
        guard now.starts(with: kept) else {
            return "loaded posts were lost silently: \(kept.count) before (…\(kept.suffix(3))), \(now.count) after (…\(now.suffix(3)))"
        }
        return nil
    }

    /// Two processes: when one list extends the other the longer is kept with the saver's
    /// anchor; otherwise the saver's list wins and the tool said so.
    static func mergeProblem(_ step: PlaceStep, after: ListState?) -> String? {
        guard let (saver, other, saverAnchor) = step.concurrent else { return nil }
        guard let after else { return "no infinite state after two processes saved" }
        if saver.starts(with: other) || other.starts(with: saver) {
            let longer = saver.count >= other.count ? saver : other
            if after.loadedPostIDs != longer { return "the merge kept \(after.loadedPostIDs.count) posts, not the longer list's \(longer.count)" }
            if let saverAnchor, after.anchor?.postID != saverAnchor { return "the merge did not keep the saver's anchor (\(saverAnchor))" }
        } else {
            if after.loadedPostIDs != saver { return "two lists that cannot merge: the later save did not win" }
            if !step.notices.contains(where: { $0.contains("another postfeed") }) { return "a replaced list was not reported" }
        }
        return nil
    }

    // MARK: Shrinking

    /// Drops operations, one at a time from the end, while the sequence still fails.
    static func shrink(
        _ operations: [PlaceOperation], in world: PlaceWorld
    ) async throws -> (operations: [PlaceOperation], violation: Violation) {
        var current = operations
        guard var violation = try await run(current, in: world) else {
            return (operations, Violation(step: 0, message: "not reproducible when run again"))
        }
        current = Array(current.prefix(violation.step))
        var index = current.count - 2
        while index >= 0 {
            var candidate = current
            candidate.remove(at: index)
            if let found = try await run(candidate, in: world) {
                (current, violation) = (Array(candidate.prefix(found.step)), found)
                index = min(index, current.count - 1)
            }
            index -= 1
        }
        return (current, violation)
    }
}

extension PlaceWorld {
    /// A file is there that the next run may not use.
    func isUnusable(_ mode: ListMode) -> Bool {
        if case .discarded = state(mode) { return true }
        return false
    }
}
