import Foundation
import StreamInput

/// MPEG-DASH MPDs, as a live station's server sends them every update period: parsed, then turned into
/// the segments available at two moments (so a period or a restart is numbered against what came
/// before). Every URL stays http(s), sequence numbers run in step, times and lengths stay finite, and
/// no listing exceeds its bound however large the template's numbers.
func fuzzMPD(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    guard let mpd = try? MPDParser.parse(body, url: "https://radio.example/dash/live.mpd") else { return 0 }
    func isRemote(_ url: String) -> Bool { ["http", "https"].contains(URL(string: url)?.scheme?.lowercased() ?? "") }
    for period in mpd.periods {
        for representation in period.representations {
            precondition(isRemote(representation.baseURL), "BaseURL \(representation.baseURL)")
            precondition((representation.template?.timescale ?? 1) > 0, "timescale 0")
        }
    }
    var timeline = DASHTimeline(quality: size % 2 == 0 ? .high : .low)
    let origin = mpd.availabilityStartTime ?? Date(timeIntervalSince1970: 1_800_000_000)
    for offset in [30.0, 95.5] {
        guard let listing = try? timeline.playlist(mpd, now: origin.addingTimeInterval(offset)) else { continue }
        let playlist = listing.playlist
        precondition(playlist.segments.count <= DASHTimeline.maxListedSegments, "\(playlist.segments.count) segments")
        for (index, segment) in playlist.segments.enumerated() {
            precondition(isRemote(segment.url), "segment at \(segment.url)")
            precondition(segment.initSection.map { isRemote($0.url) } ?? true, "init section at \(segment.initSection!.url)")
            precondition(segment.sequence == playlist.mediaSequence &+ index, "sequence numbers out of step")
            precondition(segment.duration >= 0 && segment.duration.isFinite, "duration \(segment.duration)")
            precondition(segment.programDateTime.map { $0.timeIntervalSince1970.isFinite } ?? true, "time \(segment)")
        }
        precondition(playlist.targetDuration > 0 && playlist.targetDuration.isFinite, "target \(playlist.targetDuration)")
    }
    return 0
}
