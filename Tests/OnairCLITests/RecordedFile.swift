import Foundation
import XCTest
import TestSupport

/// A finished recording, looked at the way a player and a careful user would: its chapters, its cue
/// sheet, and its audio packets as the container holds them.
struct RecordedFile {
    let url: URL

    struct Chapter: Equatable {
        let start: Double
        let title: String
    }

    /// The chapters the container carries (ID3 CHAP, MP4 chapters, Vorbis comments), as ffprobe reads them.
    func chapters() throws -> [Chapter] {
        let result = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", url.path], timeout: 60).check()
        let root = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return (root?["chapters"] as? [[String: Any]] ?? []).map { chapter in
            Chapter(start: Double(chapter["start_time"] as? String ?? "") ?? -1,
                    title: (chapter["tags"] as? [String: String])?["title"] ?? "")
        }
    }

    /// The INDEX 01 times of the cue sheet beside the file, in seconds, with each track's title.
    func cueSheet() throws -> [Chapter] {
        let text = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("cue"), encoding: .utf8)
        var chapters: [Chapter] = []
        var title = ""
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("TITLE "), line.contains("\"") { title = String(line.dropFirst(7).dropLast()) }
            if line.hasPrefix("INDEX 01 ") {
                let parts = line.dropFirst(9).split(separator: ":").compactMap { Double($0) }
                chapters.append(Chapter(start: parts[0] * 60 + parts[1] + parts[2] / 75, title: title))
            }
        }
        return chapters
    }

    /// Every audio packet's payload, concatenated (`ffmpeg -c copy -f data`): what a stream copy must
    /// keep bit for bit. ADTS headers are taken off (`adtsToASC`), as MP4 stores AAC without them.
    static func packetPayloads(_ file: URL, adtsToASC: Bool = false) throws -> Data {
        let bsf = adtsToASC ? ["-bsf:a", "aac_adtstoasc"] : []
        return try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-map", "0:a:0", "-c:a", "copy"] + bsf
                                         + ["-f", "data", "-"], timeout: 60).check().stdout
    }

    /// Start times of the packets of a raw stream file and their byte positions, from ffprobe.
    static func packetTimes(_ file: URL) throws -> [(position: Int, time: Double)] {
        let result = try ProcessRunner.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,pos",
                                                       "-of", "csv=p=0", file.path], timeout: 60).check()
        return result.stdoutText.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let position = Int(fields[1]) else { return nil }
            return (position, time)
        }
    }

    /// The finished recordings a `--json` run reported: file and the JSON object of each.
    static func finished(_ output: String) -> [[String: Any]] {
        OnairBinary.events(output).filter { $0["event"] as? String == "recording-finished" }
            .compactMap { $0["recording"] as? [String: Any] }
    }
}
