import Testing
import PostFeedImaging

@Suite struct PixelSizeTests {
    @Test func fittingKeepsTheAspectRatioAndNeverUpscales() {
        #expect(PixelSize(width: 1600, height: 1200).fitting(in: PixelSize(width: 200, height: 200))
                == PixelSize(width: 200, height: 150))
        #expect(PixelSize(width: 1200, height: 1600).fitting(in: PixelSize(width: 200, height: 200))
                == PixelSize(width: 150, height: 200))
        #expect(PixelSize(width: 100, height: 50).fitting(in: PixelSize(width: 200, height: 200))
                == PixelSize(width: 100, height: 50))
        #expect(PixelSize(width: 10_000, height: 1).fitting(in: PixelSize(width: 100, height: 100))
                == PixelSize(width: 100, height: 1))
    }
}
