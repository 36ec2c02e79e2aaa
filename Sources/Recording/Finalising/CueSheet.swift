import Foundation
import RadioModel
import Media

/// A cue sheet for a recording's chapters, for players and tools that read cue sheets rather than
/// embedded chapters (foobar2000, DeaDBeeF, CUETools). Times are the chapters' own: the packets'
/// timestamps, not bytes ÷ bitrate.
enum CueSheet {
    static func text(fileName: String, container: String, performer: String, title: String, date: String,
                     chapters: [Chapter]) -> String {
        var lines = [
            "REM DATE \(date)",
            "REM COMMENT \"onair\"",
            "PERFORMER \(quoted(performer))",
            "TITLE \(quoted(title))",
            // The cue format knows MP3 by name; anything else is "WAVE" to the players that read it.
            "FILE \(quoted(fileName)) \(container == "mp3" ? "MP3" : "WAVE")",
        ]
        for (index, chapter) in chapters.enumerated() {
            let song = TrackTitle(chapter.title)
            lines.append(String(format: "  TRACK %02d AUDIO", index + 1))
            lines.append("    TITLE \(quoted(song.title))")
            if let artist = song.artist { lines.append("    PERFORMER \(quoted(artist))") }
            lines.append("    INDEX 01 \(time(chapter.start))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// MM:SS:FF, 75 frames a second; minutes go past 99 on long recordings, as players accept.
    static func time(_ seconds: Double) -> String {
        let frames = Int((max(0, seconds) * 75).rounded())
        return String(format: "%02d:%02d:%02d", frames / 75 / 60, frames / 75 % 60, frames % 75)
    }

    /// The format has no escapes: double quotes become single ones; a line break or any other control
    /// character or bidi override (a station's name or title) goes as everywhere else (`UntrustedText`).
    static func quoted(_ text: String) -> String {
        "\"\(UntrustedText.printable(text).replacingOccurrences(of: "\"", with: "'"))\""
    }
}
