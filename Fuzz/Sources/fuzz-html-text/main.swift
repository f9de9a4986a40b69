import FuzzSupport
import PostFeedFormats

// HTMLText.render (libxml2's HTML parser and the layout), MarkdownText.render and
// HTMLText.decodeEntities on the same input: every body and title of a feed or API goes
// through one of them. The result must be terminal-safe: no control character but `\n`,
// no trailing white space on a line, references numbered 1…n.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLText(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = String(decoding: fuzzInput(start, count), as: UTF8.self)
    for rendered in [HTMLText.render(input), MarkdownText.render(input)] {
        check(rendered.text)
        for link in rendered.links + rendered.images where link.unicodeScalars.contains(where: isControl) {
            fatalError("a link with a control character: \(link.debugDescription)")
        }
    }
    _ = HTMLText.decodeEntities(input)
    return 0
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

private func check(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.unicodeScalars.contains(where: isControl) {
            fatalError("a control character in \(line.debugDescription)")
        }
        if line.hasSuffix(" ") { fatalError("trailing space in \(line.debugDescription)") }
    }
}
