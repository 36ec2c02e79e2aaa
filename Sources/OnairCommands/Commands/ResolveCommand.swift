import ArgumentParser
import Engine
import Foundation
import StreamInput

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Show the concrete stream a station or URL leads to.",
        discussion: """
        Follows HTTP redirects (at most 5), .pls playlists (entries tried in order), .m3u and .ram lists, \
        ASX (.asx, .wax: ENTRYs and their REFs tried in order) and XSPF playlists (tracks tried in order), HLS \
        master playlists (a variant picked by bandwidth) and MPEG-DASH MPDs (an audio representation \
        picked by bandwidth), then reports the stream's kind, content type \
        and codec; for HLS also the variants, the chosen one, the target duration and the playlist's \
        window (how far back --from can reach). Playlists may only lead to http or https URLs.

        Examples:
          onair resolve fip
          onair resolve https://somafm.com/groovesalad.pls --json
          onair resolve bbc-radio-3 --quality low

        Exit codes: 0 resolved; 1 nothing playable found; 3 unknown station or bad catalogue.
        """
    )

    @Argument(help: "A station id from the catalogue, or a stream or playlist URL.")
    var station: String

    @Option(help: "HLS variant (from a master playlist) or DASH representation to pick: low or high.")
    var quality: StreamQuality = .high

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    func run() throws {
        try reportingFailures {
            let resolved = try StreamTarget.named(station).resolve(quality: quality)
            // A playlist read leniently says so on stderr; stdout keeps the one answer.
            for warning in resolved.warnings ?? [] { Console.message("onair: warning: \(warning)") }
            if json { Console.json(resolved) } else { print(Self.describe(resolved)) }
        }
    }

    static func describe(_ stream: ResolvedStream) -> String {
        var rows: [(String, String)] = [("stream", URLRedaction.redact(stream.url)), ("kind", stream.kind.rawValue)]
        if let type = stream.contentType { rows.append(("type", type)) }
        if let codec = stream.codec { rows.append(("codec", codec)) }
        if let bitrate = stream.bitrate { rows.append(("bitrate", "\(bitrate) kbit/s")) }
        if let name = stream.name { rows.append(("name", name)) }
        if stream.chain.count > 1 { rows.append(("via", stream.chain.dropLast().joined(separator: " → "))) }
        if let hls = stream.hls {
            rows.append(("target", String(format: "%g s segments", hls.targetDuration)))
            rows.append(("window", String(format: "%.1f s (%d segments from #%d)%@", hls.windowSeconds, hls.segments,
                                          hls.mediaSequence, hls.live ? "" : ", ended")))
            let clock = hls.programDateTime ? "program-date-time" : "no program-date-time (--from cannot work)"
            rows.append(("clock", clock))
            if let encryption = hls.encryption { rows.append(("crypt", encryption)) }
        }
        if let dash = stream.dash {
            rows.append(("target", String(format: "%g s segments", dash.segmentDuration)))
            rows.append(("window", String(format: "%.1f s (%d segments available)%@", dash.windowSeconds, dash.segments,
                                          dash.live ? "" : ", ended")))
            rows.append(("clock", dash.utcTiming ? "presentation timeline, server clock from UTCTiming" : "presentation timeline"))
        }
        var text = rows.map { "\($0.0.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n")
        if let variants = stream.variants {
            text += "\nvariants:"
            for variant in variants.sorted(by: { $0.bandwidth > $1.bandwidth }) {
                let mark = variant.url == stream.url ? "*" : " "
                text += "\n \(mark) \(variant.bandwidth / 1000) kbit/s \(variant.codec ?? variant.codecs.joined(separator: ","))  \(URLRedaction.redact(variant.url))"
            }
        }
        return text
    }
}
