/// Text from bytes and lines, without Foundation: on Linux its `trimmingCharacters(in:)` and
/// non-UTF-8 decoding go through NSString, which made playlist parsing a tenth of following an HLS
/// stream (a playlist is parsed line by line every few seconds, and every response's header lines).
extension String {
    /// Latin-1: each byte is the code point of the same number, so decoding never fails.
    public init<Bytes: Sequence<UInt8>>(latin1 bytes: Bytes) {
        self.init(String.UnicodeScalarView(bytes.lazy.map { Unicode.Scalar($0) }))
    }

    /// UTF-8 when the bytes are valid UTF-8, else Latin-1 (which keeps every byte readable).
    public init<Bytes: Collection<UInt8>>(utf8OrLatin1 bytes: Bytes) {
        self = String(validating: bytes, as: UTF8.self) ?? String(latin1: bytes)
    }
}

extension StringProtocol {
    /// Without white space (newlines included) at either end.
    public func trimmingWhitespace() -> SubSequence {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return self[endIndex...] }
        return self[first..<scalars.index(after: last)]
    }
}
