import FuzzSupport
import ImageFuzzing
import PostFeedImaging

// ImageDecoder on PNG (libpng's simplified API): header, preview and full decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImagePNG(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImageDecoding(.png, fuzzInput(start, count))
    return 0
}
