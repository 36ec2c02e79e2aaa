import StreamInput

/// The ICY de-interleaver and title parser: the first byte picks metaint (1–256), the second how the
/// rest is split into network chunks; every metadata block found is parsed as a title, in UTF-8 and
/// with a station charset. The audio handed on must be exactly the stream minus its metadata.
func fuzzICY(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let metaint = Int(data[0]) + 1
    let chunkSize = Int(data[1]) + 1
    let stream = UnsafeRawBufferPointer(start: data + 2, count: size - 2)
    var deinterleaver = ICYDeinterleaver(metaint: metaint)
    var audioBytes = 0
    var metadataBytes = 0
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + chunkSize)
        deinterleaver.consume(UnsafeRawBufferPointer(rebasing: stream[offset..<end]),
                              audio: { audioBytes += $0.count },
                              metadata: { block, _ in
                                  metadataBytes += block.count
                                  _ = ICYMetadata(block: block)
                                  _ = ICYMetadata(block: block, charset: "windows-1251")
                              })
        offset = end
    }
    precondition(Int64(audioBytes) == deinterleaver.audioBytes, "audio bytes counted twice or lost")
    precondition(audioBytes + metadataBytes <= stream.count, "more bytes out than in")
    _ = ICYMetadata(block: Array(stream))
    return 0
}
