import StreamInput

/// ID3v2 tags: the timed ID3 HLS stations send with titles, and tags at the start of packed audio
/// segments. Sizes are bounded; text frames never exceed their limit.
func fuzzID3(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let tagSize = ID3Tag.size(atStartOf: bytes) { precondition(tagSize >= 10, "tag of \(tagSize) bytes") }
    let leading = ID3Tag.leadingTags(in: bytes)
    precondition(leading.byteCount <= bytes.count, "tags longer than the bytes")
    for tag in leading.tags + ID3Tag.timedMetadataTags(in: bytes) + [ID3Tag(bytes[...])].compactMap({ $0 }) {
        _ = tag.nowPlaying
        _ = tag.url
        precondition(tag.size <= ID3Tag.maxSize, "tag of \(tag.size) bytes kept")
    }
    return 0
}
