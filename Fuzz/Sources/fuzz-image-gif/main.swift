import FuzzSupport
import ImageFuzzing
import PostFeedImaging

// ImageDecoder on GIF, the first frame (giflib record by record): header, preview and full decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageGIF(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImageDecoding(.gif, fuzzInput(start, count))
    return 0
}
