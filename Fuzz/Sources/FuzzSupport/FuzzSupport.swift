import Foundation
@testable import PostFeedHTTP

/// The fuzzer's input as a buffer, for the targets' `LLVMFuzzerTestOneInput`.
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)
}

/// Response headers the way the engine builds them from curl's header callback
/// (`Transfer.receiveHeaderLine`): each `\n`-terminated line through ``HeaderLine``, a
/// status line starting over. Also returns the last `Content-Length` read.
public func wireHeaders(_ bytes: UnsafeRawBufferPointer) -> (headers: HTTPHeaders, contentLength: Int?, status: Int) {
    var fields = WireHeaderFields()
    var contentLength: Int?
    var status = 0
    var lineStart = 0
    while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        if lineEnd < bytes.count { lineEnd += 1 }  // curl hands over the line with its CRLF
        let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
        switch HeaderLine(line) {
        case .status(let code):
            fields = WireHeaderFields()
            contentLength = nil
            status = code
        case .field(let name, let value, let isContentLength):
            fields.append(name: UnsafeRawBufferPointer(rebasing: line[name]), value: UnsafeRawBufferPointer(rebasing: line[value]))
            if isContentLength, let length = HeaderLine.integer(line, value) { contentLength = length }
        case .other:
            break
        }
        lineStart = lineEnd
    }
    return (HTTPHeaders(wire: fields), contentLength, status)
}

/// Splits `bytes` at the first blank line (`\n\n` or `\r\n\r\n`): a header block, then a body.
/// Without a blank line, there are no headers and all of it is the body.
public func splitHeadersAndBody(_ bytes: UnsafeRawBufferPointer) -> (headers: UnsafeRawBufferPointer, body: Data) {
    var index = 0
    while index + 1 < bytes.count {
        if bytes[index] == UInt8(ascii: "\n") {
            if bytes[index + 1] == UInt8(ascii: "\n") {
                return (UnsafeRawBufferPointer(rebasing: bytes[0..<index + 1]), Data(bytes[(index + 2)...]))
            }
            if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                return (UnsafeRawBufferPointer(rebasing: bytes[0..<index + 1]), Data(bytes[(index + 3)...]))
            }
        }
        index += 1
    }
    return (UnsafeRawBufferPointer(start: nil, count: 0), Data(bytes))
}
