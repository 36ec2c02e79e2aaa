import Foundation
import StreamInput

/// .pls, .m3u, ASX, XSPF and RAM station playlists (and HLS master playlists, which share the .m3u8 door): whatever a
/// remote server sends, the entries that come out are http(s) URLs, never a local file or scheme.
func fuzzPlaylist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    for url in ["http://radio.example/listen.pls", "https://radio.example/dir/listen.m3u"] {
        _ = PlaylistParser.isPlaylist(mediaType: "audio/x-scpls", url: url, body: body)
        guard let content = try? PlaylistParser.parse(body, url: url) else { continue }
        let urls: [String]
        switch content {
        case .entries(let entries): urls = entries
        case .hlsMaster(let variants): urls = variants.map(\.url)
        case .hlsMedia(let playlist): urls = playlist.segments.map(\.url)
        }
        for entry in urls {
            let scheme = URL(string: entry)?.scheme?.lowercased()
            precondition(scheme == "http" || scheme == "https", "a playlist led to \(entry)")
        }
        if case .entries = content { precondition(urls.count <= PlaylistParser.maxEntries, "more entries than the bound") }
    }
    return 0
}
