import Foundation
import FuzzSupport
import PostFeed

// ImageInfo(sniffing:): the first bytes of every downloaded image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageSniff(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    if let info = ImageInfo(sniffing: Data(fuzzInput(start, count))) {
        precondition(info.width > 0 && info.height > 0, "sniffed an image without size: \(info)")
    }
    return 0
}
