import Foundation
import XCTest
import TestSupport

/// `onair listen`, `record` and `resolve` on MPEG-DASH: live MPDs from FFmpeg's dash muxer, served
/// locally, with the faults of `HLSFaultInjector` (an outage longer than the time-shift buffer) and
/// an encoder killed and started again (a new availabilityStartTime, numbering from 1).
final class ListenDASHTests: XCTestCase {
    private var onair: OnairBinary!
    private var server: FixtureHTTPServer!

    override func setUpWithError() throws {
        onair = try OnairBinary()
        server = try FixtureHTTPServer()
    }

    override func tearDown() { server.stop() }

    private func live(_ codec: LiveDASHEncoder.Codec = .aac, frequency: Double = 440, timeline: Bool = false,
                      at prefix: String = "/dash/") throws -> (LiveDASHEncoder, HLSFaultInjector, String) {
        let encoder = try LiveDASHEncoder(frequency: frequency, codec: codec, timeline: timeline)
        let faults = HLSFaultInjector(directory: encoder.directory.url, prefix: prefix, playlistName: LiveDASHEncoder.manifestName,
                                      playlistContentType: "application/dash+xml")
        server.route(prefix, faults.handler)
        try encoder.waitForSegments(4)
        return (encoder, faults, server.url(prefix + LiveDASHEncoder.manifestName).absoluteString)
    }

    private func listen(_ target: String, seconds: Int = 3) throws -> (ProcessResult, PCMAudio?, [[String: Any]]) {
        let wav = onair.home.file("out-\(UUID().uuidString).wav")
        let result = try onair.run(["listen", target, "--sink", "wav:\(wav.path)", "--duration", "\(seconds)", "--json"],
                                   timeout: Double(seconds) + 60)
        return (result, try? PCMAudio(wavFile: wav), OnairBinary.events(result.stdoutText))
    }

    private static func named(_ name: String, in events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    func testAACWithAndWithoutTimelineAndOpusInWebMPlayAndResolveAsDASH() throws {
        let cases: [(LiveDASHEncoder.Codec, Bool, Double, String)] = [
            (.aac, false, 440, "audio/mp4"), (.aac, true, 660, "audio/mp4"), (.opus, false, 880, "audio/webm"),
        ]
        for (codec, timeline, frequency, mimeType) in cases {
            let label = "\(codec) timeline=\(timeline)"
            let (encoder, _, url) = try live(codec, frequency: frequency, timeline: timeline, at: "/\(Int(frequency))/")
            defer { encoder.stop() }
            let (result, audio, events) = try listen(url)
            XCTAssertTrue(result.succeeded, "\(label): \(result)")
            XCTAssertEqual(try XCTUnwrap(audio, label).duration, 3, accuracy: 0.01, label)
            XCTAssertEqual(audio?.dominantFrequency() ?? 0, frequency, accuracy: 2, label)
            let names = events.compactMap { $0["event"] as? String }
            XCTAssertEqual(names.first, "connected", "\(label): \(names)")
            XCTAssertFalse(names.contains("gap") || names.contains("error"), "\(label): \(events)")
            XCTAssertFalse(Self.named("warning", in: events).contains { ($0["message"] as? String)?.contains("undecodable") == true },
                           "\(label): \(events)")
            let decoding = try XCTUnwrap(Self.named("decoding", in: events).first, label)
            XCTAssertEqual(decoding["codec"] as? String, codec == .aac ? "aac" : "opus", label)
            let clock = try XCTUnwrap(Self.named("program-date-time", in: events).first, "\(label): the presentation clock")
            XCTAssertEqual(clock["mediaTime"] as? Double, 0, label)
            // availabilityStartTime + segment time: a second or so behind the live edge, never ahead of it.
            let mark = try XCTUnwrap(Self.date(clock["programDateTime"]), "\(clock)")
            XCTAssertLessThan(mark.timeIntervalSinceNow, 0, label)
            XCTAssertGreaterThan(mark.timeIntervalSinceNow, -20, label)

            let resolved = OnairBinary.events(try onair.run(["resolve", url, "--json"]).stdoutText).first ?? [:]
            XCTAssertEqual(resolved["kind"] as? String, "dash", "\(label): \(resolved)")
            XCTAssertEqual(resolved["contentType"] as? String, mimeType, label)
            XCTAssertEqual(resolved["codec"] as? String, codec == .aac ? "aac" : "opus", label)
            XCTAssertEqual((resolved["dash"] as? [String: Any])?["live"] as? Bool, true, label)
        }
    }

    func testACatalogueStationOfKindDashAndAnMPDWithoutASuffixAreFollowed() throws {
        let (encoder, _, url) = try live(frequency: 550)
        defer { encoder.stop() }
        let config = onair.home.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
        {"version": 1, "stations": [{"id": "local-dash", "name": "Local DASH", "country": "GB", "language": "en",
         "timeZone": "Europe/London", "streams": [{"url": "\(url)", "kind": "dash", "codec": "aac"}]}]}
        """.utf8).write(to: config.appendingPathComponent("stations.json"))
        let (result, audio, _) = try listen("local-dash")
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(audio?.dominantFrequency() ?? 0, 550, accuracy: 2)
        let resolved = OnairBinary.events(try onair.run(["resolve", "local-dash", "--json"]).stdoutText).first ?? [:]
        XCTAssertEqual(resolved["kind"] as? String, "dash", "\(resolved)")

        // A URL that gives no hint: connected to like Icecast, then handed over when it answers with an MPD.
        let manifest = encoder.directory.file(LiveDASHEncoder.manifestName)
        server.route("/dash/radio") { request, connection in
            try FixtureHTTPServer.file(try Data(contentsOf: manifest), contentType: "application/dash+xml")(request, connection)
        }
        let (plain, plainAudio, events) = try listen(server.url("/dash/radio").absoluteString)
        XCTAssertTrue(plain.succeeded, "\(plain)")
        XCTAssertEqual(plainAudio?.dominantFrequency() ?? 0, 550, accuracy: 2)
        XCTAssertFalse(events.contains { $0["event"] as? String == "error" }, "\(events)")
    }

    /// On demand, one file per representation (the on-demand profile): the MPD's SegmentBase gives the
    /// initialisation's and the segment index's byte ranges, and the segments come from the index. Every
    /// request is a Range request: the init, the index, then each fragment; the whole file is never asked for.
    func testAnOnDemandFilesSegmentIndexIsFollowedByRangeRequests() throws {
        let directory = try TemporaryDirectory(prefix: "onair-segmentbase")
        let file = directory.file("tone.mp4")
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100:duration=4",
                                         "-c:a", "aac", "-b:a", "64k", "-f", "mp4", "-movflags", "frag_keyframe+empty_moov+global_sidx",
                                         "-frag_duration", "1000000", file.path], timeout: 60).check()
        let bytes = try Data(contentsOf: file)
        let index = try XCTUnwrap(Self.box("sidx", in: bytes))
        server.route("/od/tone.mp4", FixtureHTTPServer.rangedFile(bytes, contentType: "audio/mp4", served: Counter()))
        server.route("/od/show.mpd", FixtureHTTPServer.file(Data("""
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static"
             mediaPresentationDuration="PT4S"><Period><AdaptationSet contentType="audio">
          <Representation id="a" bandwidth="64000" codecs="mp4a.40.2" mimeType="audio/mp4"><BaseURL>tone.mp4</BaseURL>
            <SegmentBase indexRange="\(index.offset)-\(index.offset + index.size - 1)"><Initialization range="0-\(index.offset - 1)"/></SegmentBase>
          </Representation></AdaptationSet></Period></MPD>
        """.utf8), contentType: "application/dash+xml"))

        let wav = onair.home.file("od.wav")
        let result = try onair.run(["listen", server.url("/od/show.mpd").absoluteString, "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(result.succeeded, "the stream ends with its last segment: \(result)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 4, accuracy: 0.1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 660, accuracy: 2)
        let ranges = server.requests("/od/tone.mp4").map { $0.headers["Range"] ?? "none" }
        XCTAssertEqual(Array(ranges.prefix(2)), ["bytes=\(index.offset)-\(index.offset + index.size - 1)", "bytes=0-\(index.offset - 1)"],
                       "the index, then the initialisation: \(ranges)")
        XCTAssertEqual(ranges.count, 2 + 4, "one request per fragment: \(ranges)")
        XCTAssertFalse(ranges.contains("none"), "\(ranges)")

        // A server that ignores Range answers with the whole file: one line saying what SegmentBase needs.
        server.route("/od/tone.mp4", FixtureHTTPServer.file(bytes, contentType: "audio/mp4"))
        let ignored = try onair.run(["listen", server.url("/od/show.mpd").absoluteString, "--sink", "wav:\(onair.home.file("no.wav").path)"])
        XCTAssertFalse(ignored.succeeded)
        XCTAssertEqual(ignored.stderrText.split(separator: "\n").filter { $0.contains("Range") }.count, 1, ignored.stderrText)
        XCTAssertTrue(ignored.stderrText.contains("SegmentBase needs a server that honours Range requests"), ignored.stderrText)
    }

    /// FFmpeg's dash muxer with `-single_file 1` writes one file and a SegmentList of SegmentURL@mediaRange.
    func testASingleFileSegmentListIsFollowedByItsMediaRanges() throws {
        let directory = try TemporaryDirectory(prefix: "onair-segmentlist")
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=770:sample_rate=44100:duration=4",
                                         "-c:a", "aac", "-b:a", "64k", "-f", "dash", "-single_file", "1", "-seg_duration", "1",
                                         directory.file("list.mpd").path], timeout: 60).check()
        let manifest = try String(contentsOf: directory.file("list.mpd"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("<SegmentList") && manifest.contains("mediaRange="), manifest)
        let media = try Data(contentsOf: directory.file("list-stream0.mp4"))
        server.route("/list/list-stream0.mp4", FixtureHTTPServer.rangedFile(media, contentType: "audio/mp4", served: Counter()))
        server.route("/list/list.mpd", FixtureHTTPServer.file(Data(manifest.utf8), contentType: "application/dash+xml"))

        let wav = onair.home.file("list.wav")
        let result = try onair.run(["listen", server.url("/list/list.mpd").absoluteString, "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 4, accuracy: 0.1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 770, accuracy: 2)
        let ranges = server.requests("/list/list-stream0.mp4").map { $0.headers["Range"] ?? "none" }
        XCTAssertEqual(ranges.first?.hasPrefix("bytes=0-"), true, "the Initialization@range first: \(ranges)")
        XCTAssertEqual(ranges.count, 1 + 4, "\(ranges)")
        XCTAssertFalse(ranges.contains("none"), "\(ranges)")
    }

    /// The first top-level ISO BMFF box of `type`: its offset and size.
    private static func box(_ type: String, in data: Data) -> (offset: Int, size: Int)? {
        var offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: data[offset + 4..<offset + 8], as: UTF8.self) == type { return (offset, size) }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    /// An MPD of two periods, a programme and then an ad break from other files with another tone: the
    /// audio runs on across the boundary, with the decoder started afresh on the ad's initialisation
    /// segment and no gap.
    func testAnAdBreaksPeriodIsContinuousAudioNotAGap() throws {
        let directory = try TemporaryDirectory(prefix: "onair-periods")
        var adaptationSets: [String] = []
        for (name, frequency) in [("show", 440), ("ad", 880)] {
            let folder = directory.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=44100:duration=4",
                                             "-c:a", "aac", "-b:a", "64k", "-f", "dash", "-seg_duration", "1", "-use_template", "1",
                                             "-use_timeline", "1", folder.appendingPathComponent("out.mpd").path], timeout: 60).check()
            let written = try String(contentsOf: folder.appendingPathComponent("out.mpd"), encoding: .utf8)
            let set = try XCTUnwrap(written.range(of: "<AdaptationSet").flatMap { start in
                written.range(of: "</AdaptationSet>").map { String(written[start.lowerBound..<$0.upperBound]) }
            })
            adaptationSets.append(set)
        }
        try Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT8S">
          <Period id="show" start="PT0S"><BaseURL>show/</BaseURL>\(adaptationSets[0])</Period>
          <Period id="ad" start="PT4S"><BaseURL>ad/</BaseURL>\(adaptationSets[1])</Period>
        </MPD>
        """.utf8).write(to: directory.file("periods.mpd"))
        server.serveDirectory(directory.url, at: "/periods/")

        let wav = onair.home.file("periods.wav")
        let result = try onair.run(["listen", server.url("/periods/periods.mpd").absoluteString, "--sink", "wav:\(wav.path)", "--json"])
        XCTAssertTrue(result.succeeded, "the stream ends with its last period: \(result)")
        let events = OnairBinary.events(result.stdoutText)
        XCTAssertTrue(Self.named("gap", in: events).isEmpty, "\(events)")
        XCTAssertEqual(Self.named("decoding", in: events).count, 2, "the ad's init segment starts a new run: \(events)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 8, accuracy: 0.1)
        XCTAssertEqual(audio.slice(from: 0.5, to: 3.5).dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(audio.slice(from: 4.5, to: 7.5).dominantFrequency() ?? 0, 880, accuracy: 2)
    }

    /// A server whose clock runs a minute ahead of ours: its MPD dates the stream a minute later, so by
    /// our clock no segment exists yet. Its UTCTiming answer corrects our clock, and the stream plays on
    /// the server's time.
    func testUTCTimingCorrectsOurClockToTheServers() throws {
        let skew = 60.0
        let encoder = try LiveDASHEncoder(frequency: 440, timeline: true, utcTimingURL: server.url("/time").absoluteString)
        defer { encoder.stop() }
        server.serveDirectory(encoder.directory.url, at: "/skew/")
        let manifest = encoder.directory.file(LiveDASHEncoder.manifestName)
        server.route("/skew/" + LiveDASHEncoder.manifestName) { request, connection in
            var text = try String(contentsOf: manifest, encoding: .utf8)
            for attribute in ["availabilityStartTime", "publishTime"] {
                guard let range = text.range(of: "\(attribute)=\""),
                      let end = text[range.upperBound...].firstIndex(of: "\""),
                      let date = Self.date(String(text[range.upperBound..<end])) else { continue }
                text.replaceSubrange(range.upperBound..<end, with: Self.text(date.addingTimeInterval(skew)))
            }
            try FixtureHTTPServer.file(Data(text.utf8), contentType: "application/dash+xml")(request, connection)
        }
        server.route("/time") { request, connection in
            try FixtureHTTPServer.file(Data(Self.text(Date().addingTimeInterval(skew)).utf8), contentType: "text/plain")(request, connection)
        }
        try encoder.waitForSegments(4)
        let started = Date()
        let (result, audio, events) = try listen(server.url("/skew/" + LiveDASHEncoder.manifestName).absoluteString)
        XCTAssertTrue(result.succeeded, "\(result)")
        XCTAssertEqual(audio?.dominantFrequency() ?? 0, 440, accuracy: 2)
        XCTAssertEqual(server.requestCount("/time"), 1, "asked once, when the MPD was first loaded")
        let mark = try XCTUnwrap(Self.date(Self.named("program-date-time", in: events).first?["programDateTime"]), "\(events)")
        // The first segment's time on the server's clock: a minute ahead of ours, less a few seconds behind the live edge.
        XCTAssertLessThan(mark.timeIntervalSince(started), skew, "\(mark)")
        XCTAssertGreaterThan(mark.timeIntervalSince(started), skew - 8, "\(mark)")
    }

    private static let outage = 12.0

    /// An outage longer than the 5-second time-shift buffer, then the encoder killed and restarted:
    /// the audio goes on, and what was lost is reported as gaps naming the missing segments. Returns
    /// how long the stream was away in the restart: from the kill to the new availabilityStartTime.
    private func throughAStallAndARestart(_ encoder: LiveDASHEncoder, _ faults: HLSFaultInjector) throws -> Double {
        Thread.sleep(forTimeInterval: 5)
        faults.outage(seconds: Self.outage)
        Thread.sleep(forTimeInterval: 20)
        let killed = Date()
        try encoder.restart(after: 4)
        // The new encoder's MPD, once it has written one.
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            let manifest = (try? encoder.manifest()) ?? ""
            if let restarted = manifest.range(of: "availabilityStartTime=\"").flatMap({ range in
                Self.date(String(manifest[range.upperBound...].prefix { $0 != "\"" }))
            }), restarted > killed {
                return restarted.timeIntervalSince(killed)
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("the restarted encoder wrote no MPD")
        return 0
    }

    /// The gaps name their segments, and add up to what was really lost: the outage less the
    /// time-shift buffer (plus the few seconds the follower stays behind the live edge), and the
    /// restart's downtime.
    private func checkGapsNameTheirSegments(_ events: [[String: Any]], downtime: Double, label: String) {
        let gaps = Self.named("gap", in: events)
        let warnings = Self.named("warning", in: events).compactMap { $0["message"] as? String }
        XCTAssertGreaterThanOrEqual(gaps.count, 2, "\(label): one for the stall, one for the restart: \(gaps)")
        let lost = gaps.compactMap { $0["seconds"] as? Double }.reduce(0, +)
        XCTAssertGreaterThan(lost, Self.outage - 5.1 + downtime - 2, "\(label), down \(downtime) s: \(gaps)\n\(warnings)")
        XCTAssertLessThan(lost, Self.outage + downtime + 2, "\(label), down \(downtime) s: \(gaps)\n\(warnings)")
        for gap in gaps {
            let first = gap["firstSequence"] as? Int, last = gap["lastSequence"] as? Int
            XCTAssertNotNil(first, "\(label): \(gap)")
            if let first, let last, let seconds = gap["seconds"] as? Double {
                XCTAssertEqual(Double(last - first + 1), seconds, accuracy: 2.5, "\(label): 1-second segments: \(gap)")
            }
        }
        XCTAssertFalse(Self.named("error", in: events).contains { _ in true }, "\(label): \(events)")
    }

    func testListeningGoesThroughAStallAndAServerRestartWithTheGapsCountedBySegment() throws {
        let (encoder, faults, url) = try live()
        defer { encoder.stop() }
        let wav = onair.home.file("through.wav")
        let listening = try onair.start(["listen", url, "--sink", "wav:\(wav.path)", "--duration", "30", "--json"])
        let downtime = try throughAStallAndARestart(encoder, faults)
        XCTAssertTrue(listening.waitForExit(timeout: 90), "30 s of audio arrive")
        let result = listening.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        let events = OnairBinary.events(result.stdoutText)
        checkGapsNameTheirSegments(events, downtime: downtime, label: "listen")
        XCTAssertTrue(Self.named("reconnecting", in: events).count >= 1, "\(events)")
        let audio = try PCMAudio(wavFile: wav)
        XCTAssertEqual(audio.duration, 30, accuracy: 0.01)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 2)
    }

    func testARecordingIsAStreamCopyChapteredAtItsGapsThroughAStallAndARestart() throws {
        let (encoder, faults, url) = try live(timeline: true)
        defer { encoder.stop() }
        let recording = try onair.start(["record", url, "--duration", "30", "--json"])
        let downtime = try throughAStallAndARestart(encoder, faults)
        XCTAssertTrue(recording.waitForExit(timeout: 90), "30 s of audio arrive")
        let result = recording.result()
        XCTAssertTrue(result.succeeded, "\(result)")
        checkGapsNameTheirSegments(OnairBinary.events(result.stdoutText), downtime: downtime, label: "record")
        let finished = try XCTUnwrap(RecordedFile.finished(result.stdoutText).first, result.stdoutText)
        let file = URL(fileURLWithPath: try XCTUnwrap(finished["file"] as? String))
        XCTAssertEqual(file.pathExtension, "m4a", "AAC copied into MP4")
        XCTAssertEqual(try FFprobe.decodeErrors(file), 0)
        let audio = try FFprobe.decodePCM(file)
        XCTAssertEqual(audio.duration, 30, accuracy: 0.1)
        XCTAssertEqual(audio.dominantFrequency() ?? 0, 440, accuracy: 3)
        let probe = try FFprobe.inspect(file)
        XCTAssertEqual(probe.audio?.codecName, "aac")
        XCTAssertEqual(probe.audio?.sampleRate, 44100, "a stream copy keeps the rate")
        let chapters = try RecordedFile(url: file).chapters()
        XCTAssertGreaterThanOrEqual(chapters.filter { $0.title.hasPrefix("[gap ") }.count, 2, "\(chapters)")
    }

    private static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
