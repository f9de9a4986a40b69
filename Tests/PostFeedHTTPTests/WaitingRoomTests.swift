import Testing

@testable import PostFeedHTTP

/// The engine's queue of transfers waiting for a connection: which one starts next.
@Suite struct WaitingRoomTests {
    final class Waiter: CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    /// Pops until nothing with room is left; `room` is how many more each origin may start.
    private func drain(_ room: inout WaitingRoom<Waiter>, room capacity: [String: Int] = [:]) -> [String] {
        var capacity = capacity
        var order: [String] = []
        while let next = room.popFirst(where: { capacity[$0, default: .max] > 0 }) {
            order.append(next.name)
            let origin = String(next.name.prefix(1))
            capacity[origin] = capacity[origin].map { $0 - 1 }
        }
        return order
    }

    @Test func waitersLeaveInArrivalOrderAcrossOrigins() {
        // Given waiters of two origins ("a…" and "b…"), interleaved, at one level
        var room = WaitingRoom<Waiter>(levels: 3)
        for name in ["a1", "b1", "b2", "a2", "a3", "b3"] { room.append(Waiter(name), level: 1, origin: String(name.prefix(1))) }

        // Then they start in the order they came, whatever their origin
        #expect(room.count == 6)
        #expect(drain(&room) == ["a1", "b1", "b2", "a2", "a3", "b3"])
        #expect(room.isEmpty)
    }

    @Test func aFullOriginIsSkippedWithoutHoldingBackOthers() {
        // Given origin "a" queued first, then "b"
        var room = WaitingRoom<Waiter>(levels: 3)
        for name in ["a1", "a2", "a3", "b1", "a4", "b2"] { room.append(Waiter(name), level: 1, origin: String(name.prefix(1))) }

        // When "a" has room for one more and "b" for any number
        let started = drain(&room, room: ["a": 1])

        // Then one "a" starts, every "b" starts, and the rest of "a" waits in order
        #expect(started == ["a1", "b1", "b2"])
        #expect(room.count == 3)
        #expect(drain(&room) == ["a2", "a3", "a4"])
    }

    @Test func aHigherLevelGoesFirstAndALowerOneFillsRoomItCannotUse() {
        // Given low waiters of "b", then normal ones of "a", then a high one of "a"
        var room = WaitingRoom<Waiter>(levels: 3)
        room.append(Waiter("b-low1"), level: 0, origin: "b")
        room.append(Waiter("b-low2"), level: 0, origin: "b")
        room.append(Waiter("a-normal1"), level: 1, origin: "a")
        room.append(Waiter("a-normal2"), level: 1, origin: "a")
        room.append(Waiter("a-high"), level: 2, origin: "a")

        // When "a" has room for two: the high one and the first normal one take it, and the
        // low waiters of "b" start although a normal one of "a" still waits
        #expect(drain(&room, room: ["a": 2]) == ["a-high", "a-normal1", "b-low1", "b-low2"])
        #expect(drain(&room) == ["a-normal2"])
    }

    @Test func nothingStartsWhenNoOriginHasRoom() {
        var room = WaitingRoom<Waiter>(levels: 3)
        room.append(Waiter("a1"), level: 2, origin: "a")
        room.append(Waiter("b1"), level: 0, origin: "b")

        let started = room.popFirst(where: { _ in false })

        #expect(started == nil)
        #expect(room.count == 2)
    }

    @Test func aCancelledWaiterIsRemovedByIdentityAndOnlyOnce() {
        var room = WaitingRoom<Waiter>(levels: 3)
        let waiters = ["a1", "a2", "a3"].map(Waiter.init)
        for waiter in waiters { room.append(waiter, level: 1, origin: "a") }

        let removed = room.remove(waiters[1], level: 1, origin: "a")
        let removedAgain = room.remove(waiters[1], level: 1, origin: "a")
        let atWrongLevel = room.remove(waiters[0], level: 0, origin: "a")
        let sameName = room.remove(Waiter("a1"), level: 1, origin: "a")

        #expect(removed)
        #expect(!removedAgain)
        #expect(!atWrongLevel, "looked for at the wrong level")
        #expect(!sameName, "an equal name is not the same waiter")
        #expect(room.count == 2)
        #expect(drain(&room) == ["a1", "a3"])
    }

    @Test func removeAllHandsBackEveryWaiter() {
        var room = WaitingRoom<Waiter>(levels: 3)
        for (index, name) in ["a1", "b1", "a2", "c1"].enumerated() {
            room.append(Waiter(name), level: index % 3, origin: String(name.prefix(1)))
        }

        let all = room.removeAll().map(\.name)

        #expect(all.sorted() == ["a1", "a2", "b1", "c1"])
        let afterwards = room.popFirst(where: { _ in true })
        #expect(room.isEmpty)
        #expect(afterwards == nil)
    }

    @Test func aLongQueueKeepsItsOrderThroughCompaction() {
        // Given a FIFO consumed and refilled past its compaction points
        var fifo = FIFO<Int>()
        var expected: [Int] = []
        var popped: [Int] = []
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 20) {
                fifo.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5 + 15) { fifo.popFirst().map { popped.append($0) } }
        }
        let target = expected[popped.count + 3]
        let removed = fifo.remove(where: { $0 == target })
        #expect(removed == target)
        expected.remove(at: popped.count + 3)
        while let value = fifo.popFirst() { popped.append(value) }

        // Then every element came out once, in the order it went in
        #expect(popped == expected)
        #expect(fifo.isEmpty)
    }

    @Test func aStartedWaiterIsNotKeptAliveByTheQueue() {
        // Given a waiter popped while others still queue behind it
        var room = WaitingRoom<Waiter>(levels: 3)
        weak var started: Waiter?
        do {
            let waiter = Waiter("a1")
            started = waiter
            room.append(waiter, level: 1, origin: "a")
            room.append(Waiter("a2"), level: 1, origin: "a")
            room.append(Waiter("a3"), level: 1, origin: "a")
            let popped = room.popFirst(where: { _ in true })
            #expect(popped === waiter)
        }

        // Then the queue holds no reference to it
        #expect(started == nil)
        #expect(room.count == 2)
    }

    @Test func everyWaiterOfAnOriginLeavesAtOnceAcrossLevels() {
        // Given waiters of two origins at two levels
        var room = WaitingRoom<Waiter>(levels: 3)
        for (name, level) in [("a1", 0), ("b1", 1), ("a2", 2), ("a3", 0), ("b2", 0)] {
            room.append(Waiter(name), level: level, origin: String(name.prefix(1)))
        }

        // When origin "a"'s waiters are taken out (its name did not resolve)
        let removed = room.removeAll(origin: "a").map(\.name)

        // Then all of them, highest level first, and only them remain for "b"
        #expect(removed == ["a2", "a1", "a3"])
        #expect(room.count == 2)
        #expect(drain(&room) == ["b1", "b2"])
        #expect(room.removeAll(origin: "a").isEmpty)
    }
}
