import Foundation

extension Data {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension Array where Element == UInt8 {
    /// The little-endian integer at `offset`, or `nil` when the bytes run out.
    func littleEndianInteger<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T? {
        let width = MemoryLayout<T>.size
        guard offset >= 0, offset <= count - width else { return nil }
        var value: T = 0
        for index in (offset..<offset + width).reversed() {
            value = value << 8 | T(self[index])
        }
        return value
    }
}
