import Foundation
import PostFeed
import Testing

/// Saves are read-modify-write with a generation: two processes never erase each other's
/// progress (DESIGN.md, "List state").
@Suite("List state merging and validation")
struct ListStateMergeTests {
    @Test("an overtaken save keeps the longer list and the saver's anchor")
    func overtakenSaveMerges() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        // Given: both processes loaded generation 1 (20 posts); the other saved 60 since
        let store = ListStateStore(cacheRoot: folder.url)
        let first = try store.save(StateSamples.infinite(loaded: 20, anchorIndex: 0), basedOn: 0)
        #expect(first.generation == 1)
        let other = try store.save(StateSamples.infinite(loaded: 60, anchorIndex: 40), basedOn: first.generation)
        #expect(other.generation == 2)

        // When: the first saves 30 posts with its reader at post #25, from generation 1
        let mine = try store.save(StateSamples.infinite(loaded: 30, anchorIndex: 24), basedOn: first.generation)

        // Then: 60 posts, the saver's anchor, generation 3, nothing to report
        #expect(mine.state.loadedPostIDs == StateSamples.ids(0..<60))
        #expect(mine.state.anchor == ScrollAnchor(postID: StateSamples.id(atIndex: 24), index: 24))
        #expect(mine.generation == 3)
        #expect(mine.notices.isEmpty)
        guard case .restored(let saved) = store.load(mode: .infinite, backendIdentity: StateSamples.backend) else {
            Issue.record("the merged state was not restorable")
            return
        }
        #expect(saved.loadedPostIDs.count == 60 && saved.generation == 3)
    }

    @Test("lists that cannot merge: the later save wins and says so; seen posts of both stay seen")
    func unmergeableLaterWins() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        var theirs = StateSamples.infinite(loaded: 40, anchorIndex: 30)
        theirs.seenPostIDs = PostIDSet([1, 2, 3])
        _ = try store.save(theirs, basedOn: 5)
        var mine = StateSamples.infinite(loaded: 10, anchorIndex: 2)
        mine.loadedPostIDs = mine.loadedPostIDs.reversed()  // a different list

        let outcome = try store.save(mine, basedOn: 2)

        #expect(outcome.state.loadedPostIDs == mine.loadedPostIDs)
        #expect(outcome.notices.count == 1)
        #expect(outcome.notices.first?.contains("another postfeed saved a different infinite place") == true, "\(outcome.notices)")
        #expect(outcome.notices.first?.contains("40 posts loaded, post #31 in view") == true, "\(outcome.notices)")
        #expect(outcome.state.seenPostIDs.contains(2))
        #expect(outcome.generation == 7)
    }

    @Test("a save from the current generation replaces the list (a restart) without a word")
    func currentGenerationReplaces() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        let long = try store.save(StateSamples.infinite(loaded: 60, anchorIndex: 40), basedOn: 0)

        let restart = try store.save(StateSamples.infinite(loaded: 10, anchorIndex: 0), basedOn: long.generation)

        #expect(restart.state.loadedPostIDs.count == 10)
        #expect(restart.notices.isEmpty)
        #expect(restart.state.seenPostIDs.count == 60, "seen posts of the replaced list stay seen")
    }

    @Test(
        "semantically invalid states are refused with the reason",
        arguments: [
            ("anchor", "anchor index 1000000 is outside the list"),
            ("page", "currentPage 9223372036854775807 is too large"),
            ("pageAnchor", "is not on page 4"),
            ("counts", "loadedPageCounts add up to more than"),
            ("size", "pageSize 5000 is larger than any page size"),
            ("generation", "generation -1 is negative"),
        ])
    func invalidStates(field: String, reason: String) throws {
        var state = field.hasPrefix("page") ? StateSamples.paged() : StateSamples.infinite()
        switch field {
        case "anchor": state.anchor = ScrollAnchor(postID: 1, index: 1_000_000)
        case "page": state.currentPage = Int.max
        case "pageAnchor": state.anchor = ScrollAnchor(postID: 1, index: 5)
        case "counts": state.loadedPageCounts = [10, 10, 10, 10, 11]
        case "size": state.pageSize = 5000
        default: state.generation = -1
        }
        let data = try JSONEncoder().encode(state)
        #expect(throws: DecodingError.self) { try ListState(jsonData: data) }
        do {
            _ = try ListState(jsonData: data)
        } catch {
            #expect(ListState.describeDecodingFailure(error).contains(reason), "\(ListState.describeDecodingFailure(error))")
        }
    }

    @Test("an identity saved with credentials is read without them, as that account's")
    func identityWithoutCredentials() throws {
        var state = StateSamples.infinite()
        state.backendIdentity = "postfeed http://me:secret@127.0.0.1:6969/api/posts"
        let decoded = try ListState(jsonData: try JSONEncoder().encode(state))
        // The credentials go; the account tag they stand for stays (issue 29, item 11), so
        // the place is still that account's and no other's.
        let account = try BackendDescription.preset(.postfeed, baseURL: try #require(URL(string: "http://me:secret@127.0.0.1:6969")))
        #expect(decoded.backendIdentity == account.identity)
        #expect(decoded.backendIdentity.hasPrefix(StateSamples.backend + " (account "))
        #expect(!decoded.backendIdentity.contains("secret"))
    }
}
