import FuzzSupport
import ImageFuzzing
import PostFeedImaging

// ImageDecoder on JPEG (TurboJPEG, scaled by its DCT factors): header, preview and full decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageJPEG(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImageDecoding(.jpeg, fuzzInput(start, count))
    return 0
}
