import Foundation

/// A journal read back: everything finalising needs to know about a recording.
struct JournalContents {
    var start: RecordingStart
    /// The station's name, or for a URL, the name its server gave (icy-name) if any.
    var stationName: String
    var source: String
    var titles: [TimedTitle] = []
    var gaps: [TimedGap] = []
    var clips: [TimedClip] = []
    /// When the recording ended, if it ended normally or failed.
    var endedAt: Date?
    var failure: String?
    var finalised: FinishedRecording?

    init(_ entries: [JournalEntry]) throws(RecordingError) {
        guard case .start(let start)? = entries.first else { throw RecordingError("the journal has no start entry") }
        guard start.version <= RecordingStart.currentVersion else {
            throw RecordingError("the journal was written by a newer onair (version \(start.version))")
        }
        self.start = start
        stationName = start.station.name
        source = start.source
        for entry in entries.dropFirst() {
            switch entry {
            case .start: break
            case .connected(let name, let url, _):
                stationName = start.station.displayName(serverName: name)
                source = url
            case .title(let title, let mediaTime, _, let details): titles.append(TimedTitle(title: title, start: mediaTime, details: details))
            case .gap(let seconds, let mediaTime, _): gaps.append(TimedGap(at: mediaTime, seconds: seconds))
            case .clip(let clip, _): clips.append(clip)
            case .flush: break
            case .track(let mark): self.start.track = mark
            case .failed(let message, let at):
                failure = message
                endedAt = at
            case .end(_, _, let at): endedAt = at
            case .finalised(let finished): finalised = finished
            }
        }
    }
}
