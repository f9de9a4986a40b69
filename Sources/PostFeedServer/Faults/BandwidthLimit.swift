import Hummingbird
import NIOCore

/// A response body sent no faster than a given rate: the head at once, then the body in
/// tenth-of-a-second slices, so a client sees a slow but steady transfer (never a stall).
enum BandwidthLimit {
    /// How often a slice goes out.
    static let interval: Duration = .milliseconds(100)

    /// `response` with its body paced at `bytesPerSecond` (at least 10 bytes a second).
    static func throttle(_ response: Response, bytesPerSecond: Int) -> Response {
        let original = response.body
        let slice = max(1, bytesPerSecond / 10)
        var throttled = response
        throttled.body = ResponseBody(contentLength: original.contentLength) { writer in
            try await original.write(PacedBodyWriter(parent: writer, slice: slice))
        }
        return throttled
    }
}

/// Forwards the body `slice` bytes at a time, one slice per ``BandwidthLimit/interval``.
struct PacedBodyWriter: ResponseBodyWriter {
    var parent: any ResponseBodyWriter
    let slice: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        while buffer.readableBytes > 0, let part = buffer.readSlice(length: min(slice, buffer.readableBytes)) {
            try await parent.write(part)
            try await Task.sleep(for: BandwidthLimit.interval)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await parent.finish(trailingHeaders)
    }
}
