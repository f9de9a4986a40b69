import Testing

@testable import PostFeedHTTP

/// One name lookup per origin at a time: the engine's gate before an origin's name resolved.
@Suite struct NameLookupGateTests {
    final class Lookup {}

    @Test func anOriginIsHeldToOneTransferUntilItsNameResolves() {
        // Given a first transfer to an origin whose name has not resolved yet
        var gate = NameLookupGate<Lookup>()
        let first = Lookup()
        #expect(gate.limit(forOrigin: "http://a.example", cap: 16) == 1)
        gate.started(first, origin: "http://a.example", hostIsAddress: false)

        // Then the origin stays at one while curl is still looking the name up
        let openedEarly = gate.openResolved { _ in false }
        #expect(!openedEarly)
        #expect(gate.limit(forOrigin: "http://a.example", cap: 16) == 1)

        // Then the whole cap once the name resolved; other origins are not affected
        let opened = gate.openResolved { $0 === first }
        #expect(opened)
        #expect(gate.limit(forOrigin: "http://a.example", cap: 16) == 16)
        #expect(gate.limit(forOrigin: "http://b.example", cap: 16) == 1)
    }

    @Test func aHostWrittenAsAnAddressIsNeverHeld() {
        var gate = NameLookupGate<Lookup>()
        gate.started(Lookup(), origin: "http://127.0.0.1:8080", hostIsAddress: true)
        gate.started(Lookup(), origin: "http://[::1]:8080", hostIsAddress: true)
        #expect(gate.limit(forOrigin: "http://127.0.0.1:8080", cap: 16) == 16)
        #expect(gate.limit(forOrigin: "http://[::1]:8080", cap: 16) == 16)
        let opened = gate.openResolved { _ in true }
        #expect(!opened, "nothing was being looked up")
    }

    @Test func aLookupThatEndsWithoutANameLeavesTheOriginToTheNextTransfer() {
        // Given a lookup that ended without a name (did not resolve, cancelled, timed out)
        var gate = NameLookupGate<Lookup>()
        let first = Lookup()
        let second = Lookup()
        gate.started(first, origin: "http://a.invalid", hostIsAddress: false)
        gate.ended(first, origin: "http://a.invalid", nameResolved: false)

        // Then the origin is still held, and the next transfer to it looks the name up
        #expect(gate.limit(forOrigin: "http://a.invalid", cap: 16) == 1)
        gate.started(second, origin: "http://a.invalid", hostIsAddress: false)
        gate.ended(second, origin: "http://a.invalid", nameResolved: true)
        #expect(gate.limit(forOrigin: "http://a.invalid", cap: 16) == 16)
    }
}
