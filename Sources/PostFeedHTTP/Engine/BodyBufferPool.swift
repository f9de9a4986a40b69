import Foundation
import Synchronization

/// Warm memory for response bodies held in memory.
///
/// A body is received into a buffer from this pool, and the `Data` handed to the caller
/// owns that buffer: when the caller lets go of the `Data`, the buffer comes back here
/// instead of to `free`. The next body is then written into memory that is already mapped,
/// where a fresh allocation of a few hundred kilobytes costs the kernel a zeroed page per
/// 4 KiB touched. In the fetch benchmark that page-faulting was most of the gap between
/// PostFeed and `curl` (which reuses one buffer): a bare libcurl loop went from 0.238 s to
/// 0.130 s for 1000 images by reusing buffers (`Benchmarks/RESULTS.md`).
///
/// Sizes come in classes a quarter of a power of two apart, so a buffer is at most 25 %
/// larger than its body when the length is known (`Content-Length`), and growing one of
/// unknown length doubles it. Idle buffers are kept up to ``idleLimit`` bytes in all;
/// bodies under ``minimumPooledSize`` are copied into an ordinary `Data` (the allocator's
/// small sizes are warm anyway) and their buffer goes straight back.
///
/// Thread-safe: buffers are taken on the engine thread and returned on whatever thread
/// releases the last copy of a `Data`.
final class BodyBufferPool: Sendable {
    static let minimumPooledSize = 32 * 1024

    /// Idle bytes kept at most; `0` keeps none (every buffer is freed when released).
    let idleLimit: Int

    /// Idle buffers by capacity, as addresses (plain integers are `Sendable`; the pool owns
    /// the memory behind them).
    private struct Idle {
        var buffers: [Int: [UInt]] = [:]
        var bytes = 0
    }

    private let idle = Mutex(Idle())

    init(idleLimit: Int) {
        self.idleLimit = max(0, idleLimit)
    }

    deinit {
        idle.withLock { idle in
            for address in idle.buffers.values.joined() { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
    }

    /// The size class holding `size` bytes: `size` rounded up to the next quarter step of
    /// the power of two below it, and at least ``minimumPooledSize``.
    static func capacity(for size: Int) -> Int {
        let size = max(size, minimumPooledSize)
        let power = Int.bitWidth - (size - 1).leadingZeroBitCount  // 2^power >= size
        let step = 1 << (power - 3)  // a quarter of 2^(power-1)
        return (size + step - 1) / step * step
    }

    /// A buffer of exactly `capacity` bytes (a value from ``capacity(for:)``).
    func take(capacity: Int) -> UnsafeMutableRawPointer {
        let reused = idle.withLock { idle -> UInt? in
            guard let address = idle.buffers[capacity]?.popLast() else { return nil }
            idle.bytes -= capacity
            return address
        }
        return reused.flatMap(UnsafeMutableRawPointer.init(bitPattern:))
            ?? UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    /// Takes `buffer` back; it is freed instead when the pool is full.
    func recycle(_ buffer: UnsafeMutableRawPointer, capacity: Int) {
        let address = UInt(bitPattern: buffer)
        let kept = idle.withLock { idle -> Bool in
            guard idle.bytes + capacity <= idleLimit else { return false }
            idle.buffers[capacity, default: []].append(address)
            idle.bytes += capacity
            return true
        }
        if !kept { buffer.deallocate() }
    }

    /// Bytes idle in the pool now (for tests).
    var idleBytes: Int { idle.withLock { $0.bytes } }
}

/// One body being received into pooled memory (engine thread only).
struct PooledBody: ~Copyable {
    private let pool: BodyBufferPool
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var count = 0

    init(pool: BodyBufferPool) {
        self.pool = pool
    }

    deinit {
        if let base { pool.recycle(base, capacity: capacity) }
    }

    /// Appends `bytes`, growing to at least `expectedTotal` (the announced length) at once.
    mutating func append(_ bytes: UnsafeRawBufferPointer, expectedTotal: Int?) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if needed > capacity {
            let grown = BodyBufferPool.capacity(for: max(needed, expectedTotal ?? 0, capacity * 2))
            let buffer = pool.take(capacity: grown)
            if let base {
                buffer.copyMemory(from: base, byteCount: count)
                pool.recycle(base, capacity: capacity)
            }
            base = buffer
            capacity = grown
        }
        base.map { ($0 + count).copyMemory(from: source, byteCount: bytes.count) }
        count = needed
    }

    /// The body as `Data`, which from now on owns the buffer (and returns it to the pool
    /// when released). Leaves this body empty.
    mutating func takeData() -> Data {
        guard let base else { return Data() }
        self.base = nil
        let (count, capacity) = (self.count, self.capacity)
        self.count = 0
        self.capacity = 0
        if count < BodyBufferPool.minimumPooledSize {
            let data = Data(bytes: base, count: count)
            pool.recycle(base, capacity: capacity)
            return data
        }
        let pool = self.pool
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in
            pool.recycle(pointer, capacity: capacity)
        })
    }
}
