internal import CChafa

/// Renders RGBA pixels as terminal output: with libchafa, Unicode symbols (chafa's standard
/// set, every symbol, or half blocks) in true, 256 or no colour, iTerm2 inline images and
/// sixel; kitty graphics written by ``KittyGraphics`` from the pixels (area-averaged first
/// when there are more than the box's pixels).
/// Holds no C state between calls; each render builds and frees its own canvas.
public struct TerminalImageRenderer: Sendable {
    /// The symbols drawn in `symbols` mode.
    public enum SymbolSet: Sendable {
        /// chafa's own default ("block+border+space-wide-inverted"): blocks, quadrants,
        /// sextants and box drawing, single width. What the `chafa` command draws with.
        case standard
        /// Every symbol chafa knows, letters, digits, braille and double-width kana
        /// included: a little more detail, text-like noise in photos, and about twice the
        /// fitting time.
        case all
        /// Half blocks only: the most widely supported by fonts.
        case halfBlocks
    }

    /// Never `auto`: resolve with `ImageProtocol.resolved(environment:isTerminal:)` first.
    public let imageProtocol: ImageProtocol
    public let colors: TerminalColors
    public let symbols: SymbolSet
    /// The size of one character cell in pixels, for the pixel protocols and for keeping
    /// the aspect ratio (cells are about twice as tall as wide).
    public let cellPixelSize: PixelSize

    public init(
        imageProtocol: ImageProtocol, colors: TerminalColors = .trueColor, symbols: SymbolSet = .standard,
        cellPixelSize: PixelSize = PixelSize(width: 10, height: 20)
    ) {
        self.imageProtocol = imageProtocol == .auto ? .symbols : imageProtocol
        self.colors = colors
        self.symbols = symbols
        self.cellPixelSize = cellPixelSize
    }

    /// The renderer for the terminal `environment` describes, with `requested` (from
    /// `--images`) overriding detection. Monochrome symbols under `NO_COLOR`.
    public static func forTerminal(
        environment: [String: String], isTerminal: Bool, requested: ImageProtocol = .auto
    ) -> TerminalImageRenderer {
        TerminalImageRenderer(
            imageProtocol: requested.resolved(environment: environment, isTerminal: isTerminal),
            colors: TerminalColors.detect(environment: environment))
    }

    /// The size in cells an image of `size` pixels is drawn at to fit in `box` cells,
    /// keeping its aspect ratio (at least 1×1).
    public func cells(for size: PixelSize, fittingIn box: PixelSize) -> PixelSize {
        guard size.width > 0, size.height > 0, box.width > 0, box.height > 0 else {
            return PixelSize(width: max(1, box.width), height: max(1, box.height))
        }
        // Aspect ratio in cells: (w / cellW) : (h / cellH).
        let widthUnits = size.width * cellPixelSize.height
        let heightUnits = size.height * cellPixelSize.width
        if widthUnits * box.height >= heightUnits * box.width {
            return PixelSize(width: box.width, height: max(1, min(box.height, (heightUnits * box.width + widthUnits / 2) / widthUnits)))
        } else {
            return PixelSize(width: max(1, min(box.width, (widthUnits * box.height + heightUnits / 2) / heightUnits)), height: box.height)
        }
    }

    /// The pixel box worth decoding for a preview in `box` cells.
    public func pixelBox(forCells box: PixelSize) -> PixelSize {
        switch imageProtocol {
        case .kitty, .iterm, .sixel:
            PixelSize(width: box.width * cellPixelSize.width, height: box.height * cellPixelSize.height)
        case .symbols, .auto:
            // Symbols resolve at most 8×8 sub-cells (braille/sextants are coarser), and a
            // cell is about twice as tall as wide: in the image's own pixels a cell spans 8
            // columns and 8 × (cell height / cell width) rows. A box of 8 × 8 per cell
            // would decode a landscape image a third too narrow (a portrait one half) for
            // the sub-cell grid it is drawn on.
            PixelSize(width: box.width * 8, height: box.height * 8 * max(1, cellPixelSize.height) / max(1, cellPixelSize.width))
        case .none:
            PixelSize(width: 1, height: 1)
        }
    }

    /// Starts libchafa's one-time set-up on a helper thread, to overlap the decode of the
    /// first image: call it before decoding; ``render(_:fittingIn:)`` waits for it.
    public static func prepareInBackground() {
        ChafaWarmUp.shared.start()
    }

    /// Starts what this renderer needs set up before its first image, on a helper thread
    /// (libchafa's set-up; nothing for kitty and `none`, which do not use libchafa).
    public func prepareInBackground() {
        guard usesChafa else { return }
        Self.prepareInBackground()
    }

    /// Whether ``render(_:fittingIn:)`` draws with libchafa, which scales to its canvas on
    /// its own: every protocol but kitty (sent at the pixels it is given, at most the
    /// cells' pixels) and `none`.
    public var usesChafa: Bool {
        imageProtocol != .kitty && imageProtocol != .none
    }

    /// `image` drawn to fit in `box` cells, as the bytes to write to the terminal.
    /// Empty for `none`. Symbols output ends each row with a newline except the last.
    public func render(_ image: RGBAImage, fittingIn box: PixelSize) -> String {
        guard imageProtocol != .none, image.width > 0, image.height > 0, box.width > 0, box.height > 0 else {
            return ""
        }
        let canvasCells = cells(for: image.size, fittingIn: box)
        if imageProtocol == .kitty {
            // The terminal scales the pixels to the cells: they are sent as they are, area
            // averaged first only when there are more than the box's pixels hold. (Not to the
            // drawn cells' pixels: those are rounded, and pixels decoded to fit the box, as
            // `ImageDecoder.decode(_:for:fittingIn:)` gives them, would be averaged twice.)
            let fitted = AreaDownscaler.downscale(image, fittingIn: pixelBox(forCells: box))
            return KittyGraphics.transmission(of: fitted, cells: canvasCells)
        }
        ChafaWarmUp.shared.wait()

        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(canvasCells.width), Int32(canvasCells.height))
        chafa_canvas_config_set_cell_geometry(config, Int32(cellPixelSize.width), Int32(cellPixelSize.height))
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        if imageProtocol == .symbols {
            let symbolMap = chafa_symbol_map_new()
            defer { chafa_symbol_map_unref(symbolMap) }
            switch symbols {
            case .standard: pf_chafa_symbol_map_add_standard(symbolMap)
            case .all: chafa_symbol_map_add_by_tags(symbolMap, pf_chafa_tags_all())
            case .halfBlocks: chafa_symbol_map_add_by_tags(symbolMap, pf_chafa_tags_half_blocks())
            }
            chafa_canvas_config_set_symbol_map(config, symbolMap)
        }

        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                                         Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        }
        // The fallback terminal info knows every sequence chafa can emit; which ones are
        // used is decided by the pixel and canvas modes above.
        let termInfo = chafa_term_db_get_fallback_info(chafa_term_db_get_default())
        defer { chafa_term_info_unref(termInfo) }
        guard let printed = chafa_canvas_print(canvas, termInfo) else { return "" }
        defer { pf_gstring_free(printed) }
        guard let characters = printed.pointee.str else { return "" }
        // gchar and UInt8 may alias (a signed and an unsigned integer of one size).
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(characters).assumingMemoryBound(to: UInt8.self), count: Int(printed.pointee.len))
        return String(decoding: bytes, as: UTF8.self)
    }

    private var pixelMode: ChafaPixelMode {
        switch imageProtocol {
        case .iterm: CHAFA_PIXEL_MODE_ITERM2
        case .sixel: CHAFA_PIXEL_MODE_SIXELS
        // kitty never reaches libchafa (``KittyGraphics``).
        case .symbols, .kitty, .auto, .none: CHAFA_PIXEL_MODE_SYMBOLS
        }
    }

    private var canvasMode: ChafaCanvasMode {
        switch colors {
        case .trueColor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_256
        case .monochrome: imageProtocol == .symbols ? CHAFA_CANVAS_MODE_FGBG : CHAFA_CANVAS_MODE_TRUECOLOR
        }
    }
}
