import Foundation
import StreamInput

/// HLS media playlists (RFC 8216), as a live station's server sends them every target duration:
/// segments, keys and init sections resolve to http(s) only; sequence numbers and byte ranges stay sane.
func fuzzHLSMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    guard case .hlsMedia(let playlist)? = try? PlaylistParser.parse(body, url: "https://radio.example/hls/live.m3u8") else {
        return 0
    }
    func isRemote(_ url: String) -> Bool { ["http", "https"].contains(URL(string: url)?.scheme?.lowercased() ?? "") }
    for (index, segment) in playlist.segments.enumerated() {
        precondition(isRemote(segment.url), "segment at \(segment.url)")
        precondition(segment.encryption.map { isRemote($0.keyURL) } ?? true, "key at \(segment.encryption!.keyURL)")
        precondition(segment.initSection.map { isRemote($0.url) } ?? true, "init section elsewhere")
        precondition(segment.sequence == playlist.mediaSequence + index, "sequence numbers out of step")
        precondition(segment.duration >= 0 && segment.duration.isFinite, "duration \(segment.duration)")
        if let range = segment.byteRange { precondition(range.offset >= 0 && range.length > 0, "byte range \(range)") }
    }
    _ = playlist.windowDuration
    _ = playlist.endSequence
    return 0
}
