import Foundation
import Media

/// The chapters of a recording: one per title that was on air, one per known clip heard, and one where audio resumes
/// after a gap, all timed in seconds of the file (the packets' own timestamps, never bytes ÷ bitrate).
public enum ChapterList {
    /// Marks closer than this are one: a reconnect reports its gap and may repeat a title at the same point.
    static let sameMoment = 0.05

    /// The first title of a recording is what was on air when it began: it names the audio from 0. A known clip is a
    /// chapter of its own ("[ad] Summer sale"), and what was on air before it names the audio again after it.
    public static func chapters(titles: [TimedTitle], gaps: [TimedGap], clips: [TimedClip] = [], duration: Double,
                                untitled: String) -> [Chapter] {
        enum Mark {
            case gap(Double), clipEnd, title(String), clip(String)
            /// At the same time: gaps first (the audio resumes with what follows), a clip's end before a title, a clip last.
            var rank: Int {
                switch self {
                case .gap: 0
                case .clipEnd: 1
                case .title: 2
                case .clip: 3
                }
            }
        }
        let unsorted: [(start: Double, mark: Mark)] = titles.enumerated().map { index, title in
            (index == 0 ? 0 : max(0, title.start), .title(title.title))
        } + gaps.map { (max(0, $0.at), .gap($0.seconds)) }
            + clips.flatMap { [(max(0, $0.at), .clip($0.label)), (max(0, $0.at + $0.seconds), .clipEnd)] }
        let marks = unsorted.sorted { $0.start != $1.start ? $0.start < $1.start : $0.mark.rank < $1.mark.rank }

        var entries: [(start: Double, title: String)] = []
        var current = untitled
        var clipOnAir: String?
        var gapOfLastEntry: Double?
        for (start, mark) in marks where start < duration - sameMoment {
            var title: String
            var gap: Double?
            switch mark {
            case .title(let text):
                current = text
                clipOnAir = nil
                title = text
            case .gap(let seconds):
                gap = seconds
                title = clipOnAir ?? current
            case .clip(let label):
                clipOnAir = label
                title = label
            case .clipEnd:
                // Already over if a title came during the clip.
                guard clipOnAir != nil else { continue }
                clipOnAir = nil
                title = current
            }
            var at = entries.isEmpty && start < sameMoment ? 0 : start
            if let last = entries.last, start - last.start < sameMoment {
                gap = gap ?? gapOfLastEntry
                at = last.start
                entries.removeLast()
            }
            if let gap { title = gapLabel(gap) + " " + title }
            entries.append((at, title))
            gapOfLastEntry = gap
        }
        guard !entries.isEmpty else { return [] }
        if entries[0].start > 0 { entries.insert((0, untitled), at: 0) }
        return entries.enumerated().map { index, entry in
            Chapter(start: entry.start, end: index + 1 < entries.count ? entries[index + 1].start : duration, title: entry.title)
        }
    }

    /// "[gap 12.5 s]"
    static func gapLabel(_ seconds: Double) -> String { String(format: "[gap %.1f s]", seconds) }
}
