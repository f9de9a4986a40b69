import FoundationEssentials
import PostFeedImaging

/// What to draw and how.
struct PreviewOptions {
    /// The box in terminal cells (40×20: the size).
    var cells = PixelSize(width: 40, height: 20)
    var format = ImageProtocol.symbols
    /// Decode at the original's size, then downscale: what a preview costs without the
    /// decoders' scaling (TurboJPEG's DCT factors, libwebp's scaler).
    var fullDecode = false
    /// One terminal cell in pixels (the renderer's default, 10×20, unless `--cell`): what
    /// the pixel protocols send per cell.
    var cellPixelSize = PixelSize(width: 10, height: 20)

    /// True colour and chafa's standard symbols: the renderer's defaults, and what the
    /// `chafa` command is given in the comparison (`--colors full`, its default symbols).
    var renderer: TerminalImageRenderer {
        TerminalImageRenderer(imageProtocol: format, colors: .trueColor, symbols: .standard, cellPixelSize: cellPixelSize)
    }
}

/// One preview, the way PostFeed draws it (`ImagePreviewer`): libchafa's set-up started
/// on another thread (symbols), decode scaled for the pixel box the renderer wants for the
/// cells (`decode(_:for:fittingIn:)`: symbols at the decoder's own scaling, chafa
/// resamples the rest; kitty area-averaged to the exact fit, sent as it is), then render
/// into the cells.
enum Preview {
    static func draw(_ data: Data, options: PreviewOptions) throws -> String {
        let renderer = options.renderer
        renderer.prepareInBackground()
        return renderer.render(try decode(data, options: options, renderer: renderer), fittingIn: options.cells)
    }

    static func decode(_ data: Data, options: PreviewOptions, renderer: TerminalImageRenderer) throws -> RGBAImage {
        let decoder = ImageDecoder()
        if options.fullDecode {
            return AreaDownscaler.downscale(try decoder.decode(data), fittingIn: renderer.pixelBox(forCells: options.cells))
        }
        return try decoder.decode(data, for: renderer, fittingIn: options.cells)
    }
}
