import HTTPService

/// `Range:` headers against a file of any size (the first two bytes, little-endian): a part is always
/// inside the file, and an empty file has none.
func fuzzHTTPRange(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let fileSize = Int(data[0]) | Int(data[1]) << 8
    let header = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    if case .part(let range) = ByteRange.parse(header, size: fileSize) {
        precondition(range.lowerBound >= 0 && range.upperBound < fileSize, "\(range) outside a file of \(fileSize) bytes")
    }
    return 0
}
