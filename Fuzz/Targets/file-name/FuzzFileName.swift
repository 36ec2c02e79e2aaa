import Recording

/// File names made from what stations send (titles, names): whatever the text, the result is one
/// harmless name inside its directory — no separator, no "..", no control character, no leading dot
/// or dash, at most FileNameToken.maxBytes of UTF-8.
func fuzzFileName(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let name = FileNameToken.sanitised(text)
    precondition(!name.contains("/") && !name.contains("\\"), "a separator in '\(name)'")
    precondition(!name.contains(".."), "'..' in '\(name)'")
    precondition(!name.hasPrefix(".") && !name.hasPrefix("-"), "hidden or option-like '\(name)'")
    precondition(name.utf8.count <= FileNameToken.maxBytes, "\(name.utf8.count) bytes")
    precondition(!name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a control character")
    return 0
}
