import Foundation
import RadioModel

/// The tags a finished recording carries, by FFmpeg's generic names (each muxer maps them to ID3v2
/// frames, MP4 atoms or Vorbis comments).
enum RecordingTags {
    static func metadata(for contents: JournalContents, duration: Double, gaps: [TimedGap]) -> [String: String] {
        let start = contents.start
        let zone = TimeZone(identifier: start.timeZone) ?? .current
        let clock = FileNameTemplate.clock(start.startedAt, in: zone)
        var tags: [String: String] = [
            "date": clock.date,
            "album": start.programme?.name ?? contents.stationName,
        ]
        if let track = start.track {
            // One song: "Artist - Title" as the stream announced it.
            let song = contents.titles.first?.title ?? ""
            let parts = TrackTitle(song)
            tags["title"] = parts.title.isEmpty ? contents.stationName : parts.title
            tags["artist"] = parts.artist ?? contents.stationName
            // What the station sent with the song (iHeart): kept as user tags (ID3 TXXX, Vorbis comments).
            if let details = contents.titles.first?.details {
                tags["artwork_url"] = details.artworkURL
                tags["announced_length"] = details.length.map { ClockText.of($0, alwaysHours: true) }
                tags["title_kind"] = details.kind?.rawValue
            }
            if track.completeness != .whole { tags["partial"] = track.completeness.rawValue }
        } else {
            tags["title"] = start.programme.map { programme in
                programme.episodeTitle.map { "\(programme.name): \($0)" } ?? "\(programme.name) \(clock.date)"
            } ?? "\(contents.stationName) \(clock.date) \(clock.time.replacingOccurrences(of: "-", with: ":"))"
            tags["artist"] = contents.stationName
        }
        // A guide's details of the broadcast: FFmpeg's generic names (ID3v2 TXXX frames, MP4 desc/tven atoms).
        if let description = start.programme?.description { tags["description"] = description }
        if let number = start.programme?.episodeNumber { tags["episode_id"] = number }
        var comment = "Recorded by onair from \(contents.source)"
        if !gaps.isEmpty {
            let summary = gapSummary(gaps)
            tags["gaps"] = summary
            comment += ". Gaps: \(summary)"
        }
        tags["comment"] = comment
        return tags
    }

    /// "2 gaps, 12.5 s missing: at 0:12:03 (10.0 s), at 0:45:00 (2.5 s)"
    static func gapSummary(_ gaps: [TimedGap]) -> String {
        let total = gaps.reduce(0) { $0 + $1.seconds }
        let list = gaps.map { String(format: "at %@ (%.1f s)", ClockText.of($0.at, alwaysHours: true), $0.seconds) }.joined(separator: ", ")
        return String(format: "%d gap%@, %.1f s missing: ", gaps.count, gaps.count == 1 ? "" : "s", total) + list
    }
}
