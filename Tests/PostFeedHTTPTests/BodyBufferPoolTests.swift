import Foundation
import Testing

@testable import PostFeedHTTP

/// The pool response bodies are received into (no server needed).
@Suite struct BodyBufferPoolTests {
    @Test(arguments: [
        (1, 32 * 1024),  // the minimum
        (32 * 1024, 32 * 1024),
        (32 * 1024 + 1, 40 * 1024),  // quarter steps of 32 KiB above it
        (100_000, 112 * 1024),
        (128 * 1024, 128 * 1024),
        (300_000, 320 * 1024),
        (1_048_577, 1_280 * 1024),
    ])
    func sizeClassesAreQuarterStepsAtMostAQuarterLarger(size: Int, capacity: Int) {
        #expect(BodyBufferPool.capacity(for: size) == capacity)
        #expect(Double(capacity) <= Double(max(size, BodyBufferPool.minimumPooledSize)) * 1.25)
    }

    @Test func aReleasedBodyReturnsItsBufferForTheNextOne() throws {
        // Given a 100 kB body received in 16 KiB chunks, length announced
        let pool = BodyBufferPool(idleLimit: 1 << 20)
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var data: Data? = receive(bytes, into: pool, announced: bytes.count)

        // Then the Data holds the bytes, and owns the buffer while it lives
        #expect(data == Data(bytes))
        #expect(pool.idleBytes == 0)

        // When it is released, the buffer is idle in the pool, and the next body of that
        // size class takes it instead of new memory
        data = nil
        #expect(pool.idleBytes == 112 * 1024)
        let next = receive(bytes, into: pool, announced: bytes.count)
        #expect(pool.idleBytes == 0)
        #expect(next == Data(bytes))
    }

    @Test func aBodyOfUnknownLengthGrowsWithoutLosingBytes() {
        let pool = BodyBufferPool(idleLimit: 1 << 22)
        let bytes = (0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

        let data = receive(bytes, into: pool, announced: nil)

        #expect(data == Data(bytes))
        // The outgrown buffers went back to the pool.
        #expect(pool.idleBytes > 0)
    }

    @Test func smallBodiesAreCopiedAndTheirBufferGoesStraightBack() {
        let pool = BodyBufferPool(idleLimit: 1 << 20)
        let bytes = Array("{\"id\":1}".utf8)

        let data = receive(bytes, into: pool, announced: bytes.count)

        #expect(data == Data(bytes))
        #expect(pool.idleBytes == BodyBufferPool.minimumPooledSize)
    }

    @Test func theIdleLimitIsKept() {
        let pool = BodyBufferPool(idleLimit: 100 * 1024)
        let buffers = (0..<4).map { _ in pool.take(capacity: 40 * 1024) }

        for buffer in buffers { pool.recycle(buffer, capacity: 40 * 1024) }

        // Two fit under 100 KiB; the others were freed.
        #expect(pool.idleBytes == 80 * 1024)
    }

    private func receive(_ bytes: [UInt8], into pool: BodyBufferPool, announced: Int?) -> Data {
        var body = PooledBody(pool: pool)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(offset + 16_384, buffer.count)
                body.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), expectedTotal: announced)
                offset = end
            }
        }
        return body.takeData()
    }
}
