import Foundation
import TestSupport

/// A station for relay tests: an MP3 (128 kbit/s CBR) served in real time by a fixture server, with
/// an optional stall, so that what reaches a sink can be compared with the wall clock.
struct RelayStation {
    let server: FixtureHTTPServer
    let url: String

    /// 128 kbit/s: 16000 bytes are one second of audio.
    static let bytesPerSecond = 16_000

    /// - Parameters:
    ///   - tones: the programme, looped never: it ends when they end.
    ///   - stall: after this many seconds of audio the server sends nothing for `seconds`, then goes on.
    init(tones: [Tone], stall: (after: Double, seconds: Double)? = nil) throws {
        let mp3 = try Data(contentsOf: AudioFixtures.tones(tones, codec: .mp3, bitrate: 128))
        server = try FixtureHTTPServer()
        server.route("/station.mp3") { _, connection in
            try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [("Content-Type", "audio/mpeg"), ("icy-name", "relay test")])
            let split = stall.map { min(mp3.count, Int($0.after * Double(Self.bytesPerSecond))) } ?? mp3.count
            try ICYStreamWriter(audio: mp3.prefix(split)).stream(to: connection, bytesPerSecond: Self.bytesPerSecond,
                                                                  includeMetadata: false)
            guard let stall else { return }
            try connection.sleep(stall.seconds)
            try ICYStreamWriter(audio: mp3.suffix(from: split)).stream(to: connection, bytesPerSecond: Self.bytesPerSecond,
                                                                        includeMetadata: false)
        }
        url = server.url("/station.mp3").absoluteString
    }

    func stop() { server.stop() }
}

/// 48000:16:2, Snapcast's format and onair's default.
enum SnapcastFormat {
    static let bytesPerSecond = 192_000

    static func audio(_ data: Data) throws -> PCMAudio {
        try PCMAudio(raw: data.prefix(data.count - data.count % 4), format: .s16le, sampleRate: 48000, channels: 2)
    }
}

extension RunningProcess {
    /// Resident memory of the process now, in bytes (from /proc).
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The sink states (`waiting`, `connected`, …) reported so far, in order.
    var sinkStates: [String] {
        OnairBinary.events(String(decoding: stdout, as: UTF8.self)).compactMap { $0["state"] as? String }
    }
}
