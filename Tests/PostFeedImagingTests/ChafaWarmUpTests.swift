import Foundation
import Synchronization
import Testing
@testable import PostFeedImaging

/// chafa's background set-up: whoever waits for it, however many at once, returns only
/// once it has ended, and renders right after it starts draw what they draw without it.
@Suite struct ChafaWarmUpTests {
    /// Set once the set-up thread has been joined.
    final class Flag: Sendable {
        let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    @Test func everyConcurrentWaiterReturnsAfterTheSetUpEnded() async {
        let joined = Flag()
        let warmUp = ChafaWarmUp(join: { thread in
            // Not a timing assertion: a slower join only widens the window in which a
            // second waiter could return before the first has joined.
            usleep(20_000)
            ChafaWarmUp.joinThread(thread)
            joined.set()
        })
        warmUp.start()
        let sawJoined = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    warmUp.wait()
                    return joined.isSet
                }
            }
            var seen: [Bool] = []
            for await value in group { seen.append(value) }
            return seen
        }
        #expect(sawJoined == Array(repeating: true, count: 8))
    }

    @Test func concurrentRendersRightAfterTheStartDrawTheSame() async {
        let image = TestImages.gradient(width: 160, height: 120)
        let box = PixelSize(width: 40, height: 20)
        TerminalImageRenderer.prepareInBackground()
        let outputs = await withTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask {
                    TerminalImageRenderer(imageProtocol: index % 2 == 0 ? .symbols : .sixel).render(image, fittingIn: box)
                }
            }
            var outputs: [String] = []
            for await output in group { outputs.append(output) }
            return outputs
        }
        let symbols = TerminalImageRenderer(imageProtocol: .symbols).render(image, fittingIn: box)
        let sixel = TerminalImageRenderer(imageProtocol: .sixel).render(image, fittingIn: box)
        #expect(!symbols.isEmpty && !sixel.isEmpty)
        let drawnAsSymbols = outputs.filter { $0 == symbols }.count
        let drawnAsSixel = outputs.filter { $0 == sixel }.count
        #expect(drawnAsSymbols == 4)
        #expect(drawnAsSixel == 4)
    }
}
