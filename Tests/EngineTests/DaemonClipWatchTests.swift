import ClipDetection
import Daemon
import Engine
import Foundation
import Monitoring
import RadioModel
import Recording
import Scheduling
import Store
import StreamInput
import TestSupport
import XCTest

/// The daemon in-process hears the clips of its library on the stations it records, live: Icecast plays music with a
/// 15-s spot spliced in (as MP3, and as AAC at 64 kbit/s and 6 dB quieter) in real time, and one mount without it.
final class DaemonClipWatchTests: XCTestCase {
    private var home: TemporaryDirectory!
    private var daemon: DaemonService?
    private let finished = Locked(false)
    /// Each live event with when it reached the subscriber.
    private let heard = Locked<[(event: LiveEvent, at: Date)]>([])
    /// Where the spot begins in the stream, in seconds.
    private static let spliceAt = 8.0

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "onair-clips-daemon")
    }

    override func tearDown() {
        daemon?.stop()
        XCTAssertTrue(eventually(timeout: 30) { self.finished.current }, "the daemon stops")
        home?.remove()
    }

    private var paths: AppPaths { AppPaths(environment: ["ONAIR_HOME": home.url.path]) }

    private func startDaemon(webhook: String? = nil, learnsTracks: Bool = false) throws -> DaemonService {
        var options = DaemonService.Options()
        options.alertWebhook = webhook
        options.learnsTracks = learnsTracks
        let finished = self.finished
        let daemon = try DaemonService(paths: paths, options: options,
                                       lookup: { text in try StreamTarget.parse(text, catalogue: { Catalogue(stations: []) }) },
                                       log: { _ in })
        self.daemon = daemon
        let events = try XCTUnwrap(daemon.events.subscribe())
        let heard = self.heard
        Task { for await event in events { heard.withLock { $0.append((event, Date())) } } }
        Thread {
            try? daemon.run()
            finished.withLock { $0 = true }
        }.start()
        return daemon
    }

    private func start(_ kind: JobSpec.Kind, _ url: URL, on daemon: DaemonService) throws -> JobStatus {
        try ControlClient(socket: daemon.socket).send(ControlRequest(.startJob, job: JobSpec(kind: kind, station: url.absoluteString)),
                                                      expecting: JobStatus.self).reply
    }

    /// `audio` as a 128 kbit/s MP3, served as an ICY stream eight times faster than it plays, with `titles` at their seconds.
    private func station(_ audio: [Int16], titles: [(seconds: Double, title: String)], name: String) throws -> FixtureHTTPServer {
        let file = home.file(name)
        try ChordMusic.encode(audio, to: file, options: ["-c:a", "libmp3lame", "-b:a", "128k"])
        let writer = ICYStreamWriter(audio: try Data(contentsOf: file), schedule: titles.map { .title($0.title, atAudioByte: Int($0.seconds * 16000)) })
        return try FixtureHTTPServer(routes: ["/station.mp3": FixtureHTTPServer.icyStream(writer, bytesPerSecond: 16000 * 8)])
    }

    private func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    func testASpotOnALiveIcecastStationIsToldWithinFiveSecondsOfItsEndAndIsAChapterOfTheRecording() throws {
        let spot = ChordMusic(seed: 77).samples(seconds: 15), music = ChordMusic(seed: 78).samples(seconds: 45)
        let splice = Int(Self.spliceAt) * 11025
        let aired = home.file("aired.wav"), without = home.file("without.wav"), clip = home.file("spot.wav")
        try ChordMusic.encode(spot, to: clip)
        try ChordMusic.encode(Array(music[..<splice]) + spot + Array(music[splice...]), to: aired)
        try ChordMusic.encode(music, to: without)
        let hook = try FixtureHTTPServer(routes: ["/hook": FixtureHTTPServer.status(200)])
        defer { hook.stop() }
        let daemon = try startDaemon(webhook: hook.url("/hook").absoluteString)
        let icecast = try IcecastHarness(burstSize: 0)
        defer { icecast.stop() }
        // Each mount is recorded (or, the AAC one, watched: connected, recording nothing) as soon as it is live: its first
        // seconds are the music before the spot.
        var began: [String: Date] = [:], jobs: [String: JobStatus] = [:]
        for (mount, codec, bitrate, gain, file, kind) in [("/aired.mp3", AudioCodec.mp3, 128, 0.0, aired, JobSpec.Kind.record),
                                                          ("/aired.aac", .aacADTS, 64, -6.0, aired, .watch),
                                                          ("/without.mp3", .mp3, 128, 0.0, without, .record)] {
            began[mount] = Date()
            try icecast.startSource(mount: mount, codec: codec, bitrate: bitrate, gain: gain, file: file)
            jobs[mount] = try start(kind, icecast.url(mount: mount), on: daemon)
            // Added as `onair clips add` adds it, to the library of a running daemon: the first station is connected
            // already, and its watch begins with the next look at the library.
            if mount == "/aired.mp3" {
                let print = try ClipFile.fingerprint(clip.path)
                try ClipLibrary(database: try OnairDatabase(directory: paths.data))
                    .add(name: "Summer sale", kind: .ad, seconds: print.seconds, fingerprint: print.fingerprint)
            }
        }
        func matches() -> [(airing: ClipSighting, at: Date)] {
            heard.current.compactMap { heard in heard.event.airing.map { ($0, heard.at) } }
        }
        XCTAssertTrue(eventually(timeout: Self.spliceAt + 15 + 10) { matches().count >= 2 }, "\(heard.current.map(\.event.type))")
        // The mount without the spot has played 20 s more by now.
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(matches().count, 2, "\(matches().map(\.airing))")

        for mount in ["/aired.mp3", "/aired.aac"] {
            let station = icecast.url(mount: mount).absoluteString
            let (airing, told) = try XCTUnwrap(matches().first { $0.airing.station == station }, mount)
            XCTAssertEqual(airing.clip, "Summer sale")
            XCTAssertEqual(airing.kind, "ad")
            XCTAssertFalse(airing.partial, mount)
            XCTAssertEqual(airing.end.timeIntervalSince(airing.start), 15, accuracy: 0.5, mount)
            XCTAssertLessThanOrEqual(told.timeIntervalSince(airing.end), 5, "\(mount): told within 5 s of its end")
            // On the station's clock (when its audio arrived): the source's ffmpeg takes a moment to send its first second.
            let expected = try XCTUnwrap(began[mount]).addingTimeInterval(Self.spliceAt)
            XCTAssertEqual(airing.start.timeIntervalSince(expected), 0.3, accuracy: 0.7, "\(mount): it began \(Self.spliceAt) s in")
            let metrics = daemon.metricsText()
            XCTAssertEqual(value("onair_clip_matches_total{station=\"\(station)\",kind=\"ad\"}", in: metrics), 1, metrics)
        }
        let notices = hook.requests("/hook").compactMap { try? OnairJSON.decoder.decode(AlertSender.Notice.self, from: $0.body) }
        XCTAssertEqual(notices.filter { $0.event == "clip-matched" }.compactMap(\.clip), ["Summer sale", "Summer sale"], "\(notices)")
        let log = try AiringLog(database: try OnairDatabase(directory: paths.data))
        XCTAssertTrue(eventually(timeout: 5) { ((try? log.airings()) ?? []).count == 2 }, "kept for onair aired")

        // The MP3 recording, stopped and finalised, carries the spot where it aired: in the index and as a chapter of the file.
        let job = try XCTUnwrap(jobs["/aired.mp3"])
        _ = try ControlClient(socket: daemon.socket).send(ControlRequest(.stopJob, id: job.id), expecting: JobStatus.self)
        XCTAssertEqual(daemon.stations.count, 2, "the watch does not keep a station connected once its jobs are gone")
        let index = try RecordingsIndex(database: try OnairDatabase(directory: paths.data))
        XCTAssertTrue(eventually(timeout: 10) { ((try? index.all()) ?? []).contains { $0.source.hasSuffix("/aired.mp3") } })
        let recording = try XCTUnwrap(try index.all().first { $0.source.hasSuffix("/aired.mp3") })
        let airing = try XCTUnwrap(matches().first { $0.airing.station.hasSuffix("/aired.mp3") }?.airing)
        let clipInFile = try XCTUnwrap(recording.clips?.first, "\(recording)")
        XCTAssertEqual(clipInFile.clip, "Summer sale")
        // Where the spot is in the file's own audio, found by decoding the file and matching it.
        let decoded = try ProcessRunner.run("ffmpeg", ["-v", "error", "-i", recording.file, "-f", "s16le", "-ac", "1", "-ar", "11025", "-"],
                                            timeout: 30).check().stdout
        let inFile = Locked<[ClipSighting]>([])
        let watch = try ClipWatch(index: ClipIndex(try ClipLibrary(database: try OnairDatabase(directory: paths.data)).all()), station: "file",
                                  format: PCMFormat(sampleRate: 11025, bitsPerSample: 16, channels: 1), clock: { Date() }) { sighting in
            inFile.withLock { $0.append(sighting) }
        }
        try decoded.withUnsafeBytes { try watch.consume($0) }
        watch.finish()
        let truth = try XCTUnwrap(inFile.current.first, "the spot is in the file").mediaTime
        XCTAssertEqual(clipInFile.at, truth, accuracy: 0.5, "the chapter is where the spot is in the file (by the station's clock: "
                       + "\(airing.start.timeIntervalSince(recording.startUTC)))")
        let chapters = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", recording.file], timeout: 30)
        let spotChapter = try XCTUnwrap(chapters.stdoutText.split(separator: "\n").first { $0.hasSuffix(",[ad] Summer sale") },
                                        chapters.stdoutText)
        let start = try XCTUnwrap(Double(spotChapter.split(separator: ",")[3]))
        XCTAssertEqual(start, clipInFile.at, accuracy: 0.05, chapters.stdoutText)
    }

    /// Learning, the daemon keeps a song a station named while it aired whole, and knows it by name where it airs again on
    /// a station that sends no titles: the airing is told, and a recording of that station split into tracks has the
    /// song as a track of its own, whole, under its name.
    func testASongOneStationNamedIsKnownByThatNameOnAStationThatSendsNoTitles() throws {
        let daemon = try startDaemon(learnsTracks: true)
        let titled = try station(ChordMusic(seed: 80).samples(seconds: 10) + ChordMusic(seed: 81).samples(seconds: 40)
                                     + ChordMusic(seed: 82).samples(seconds: 25),
                                 titles: [(0, "Intro - Already on"), (10, "The Band - Song"), (50, "Next - Thing")], name: "titled.mp3")
        defer { titled.stop() }
        _ = try start(.watch, titled.url("/station.mp3"), on: daemon)
        let library = try daemon.clipStores.get().library
        XCTAssertTrue(eventually(timeout: 20) { ((try? library.all()) ?? []).contains { $0.name == "The Band - Song" } }, "the song is learned")
        let learned = try XCTUnwrap(try library.all().first { $0.name == "The Band - Song" })
        XCTAssertTrue(learned.learned)
        XCTAssertEqual(learned.kind, .song)
        XCTAssertEqual(try library.all().map(\.name), ["The Band - Song"], "neither the title on air at the start nor the cut one")

        let untitled = try station(ChordMusic(seed: 83).samples(seconds: 12) + ChordMusic(seed: 81).samples(seconds: 40)
                                       + ChordMusic(seed: 84).samples(seconds: 15), titles: [], name: "untitled.mp3")
        defer { untitled.stop() }
        let recording = try ControlClient(socket: daemon.socket).send(
            ControlRequest(.startJob, job: JobSpec(kind: .record, station: untitled.url("/station.mp3").absoluteString, splitTracks: true)),
            expecting: JobStatus.self).reply
        let station = untitled.url("/station.mp3").absoluteString
        XCTAssertTrue(eventually(timeout: 20) { self.heard.current.contains { $0.event.airing?.station == station } },
                      "\(heard.current.map(\.event.type))")
        let airing = try XCTUnwrap(heard.current.compactMap(\.event.airing).first { $0.station == station })
        XCTAssertEqual(airing.clip, "The Band - Song")
        XCTAssertEqual(airing.mediaTime, 12, accuracy: 0.5, "where the song began, before the seconds its clip leaves out")

        // A track is finished once the cut after it is placed, which waits for 12 s of audio past it (a clip beginning
        // back to back could still replace the cut): the song's end, 3 s after its airing was told, waits for the stream's
        // last 15 s and its reconnection (what the station plays then is not asked).
        let index = try RecordingsIndex(database: try OnairDatabase(directory: paths.data))
        func tracks() -> [IndexedRecording] {
            ((try? index.all()) ?? []).filter { $0.source == station }.sorted { $0.startUTC < $1.startUTC }
        }
        XCTAssertTrue(eventually(timeout: 20) { tracks().count >= 2 }, "\(tracks())")
        _ = try ControlClient(socket: daemon.socket).send(ControlRequest(.stopJob, id: recording.id), expecting: JobStatus.self)
        let split = tracks().prefix(2)
        XCTAssertEqual(split.map { $0.titles.first?.title }, [nil, "The Band - Song"], "\(split)")
        XCTAssertEqual(split.first?.duration ?? 0, 12, accuracy: 0.5, "what aired before the song")
        XCTAssertEqual(split.last?.duration ?? 0, 40, accuracy: 0.5, "the whole song, the seconds its clip leaves out put back")
    }
}
