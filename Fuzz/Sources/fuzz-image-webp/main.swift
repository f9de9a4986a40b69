import FuzzSupport
import ImageFuzzing
import PostFeedImaging

// ImageDecoder on WebP (libwebp's advanced API, scaled by libwebp): header, preview and full decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageWebP(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImageDecoding(.webp, fuzzInput(start, count))
    return 0
}
