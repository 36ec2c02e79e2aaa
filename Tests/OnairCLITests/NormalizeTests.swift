import Foundation
import XCTest
import TestSupport

/// `--normalize` on two real Icecast stations 10 LU apart, live and recorded: what comes out is within
/// 1 LU of the target by the ffmpeg CLI's own EBU R128 meter; recordings carry their loudness in the
/// index and in a ReplayGain tag.
final class NormalizeTests: XCTestCase {
    /// Started once for the class; a failure to start fails each test with its reason.
    nonisolated(unsafe) private static var started: Result<IcecastHarness, Error>?
    private var icecast: IcecastHarness!
    private var onair: OnairBinary!
    /// ffmpeg's sine as is (about -22 LUFS) and 10 dB down.
    private let stations = [(mount: "/loud.mp3", gain: 0.0), (mount: "/quiet.mp3", gain: -10.0)]

    override class func setUp() {
        started = Result { try IcecastHarness() }
    }

    override class func tearDown() {
        try? started?.get().stop()
        started = nil
    }

    override func setUpWithError() throws {
        icecast = try Self.started?.get()
        onair = try OnairBinary()
        for station in stations where !(try icecast.mounts().contains { $0.mount == station.mount }) {
            try icecast.startSource(mount: station.mount, codec: .mp3, gain: station.gain)
        }
    }

    private func url(_ mount: String) -> String { icecast.url(mount: mount).absoluteString }

    func testListenNormalizeBringsTwoStationsTenLUApartToTheTarget() throws {
        var plain: [Double] = []
        for station in stations {
            let wav = onair.home.file("plain\(station.gain).wav")
            XCTAssertTrue(try onair.run(["listen", url(station.mount), "--sink", "wav:\(wav.path)", "--duration", "4"]).succeeded)
            plain.append(try LoudnessReading.integrated(of: wav))
        }
        XCTAssertEqual(plain[0] - plain[1], 10, accuracy: 0.5, "the stations as sent are 10 LU apart")

        for (station, target) in zip(stations, [-16.0, -16.0]) + [(stations[1], -20.0)] {
            let wav = onair.home.file("normal\(station.gain)\(target).wav")
            var arguments = ["listen", url(station.mount), "--sink", "wav:\(wav.path)", "--duration", "6"]
            arguments += target == -16 ? ["--normalize"] : ["--normalize-target=\(Int(target))"]
            let result = try onair.run(arguments)
            XCTAssertTrue(result.succeeded, "\(result)")
            XCTAssertEqual(try LoudnessReading.integrated(of: wav), target, accuracy: 1, "\(station.mount) to \(target) LUFS")
        }
    }

    /// `relay --normalize` runs until stopped: each station relayed into a WAV file for about 6 s, then SIGTERM
    /// (which finishes the file).
    func testRelayNormalizeBringsTwoStationsTenLUApartToWithinOneLU() throws {
        var levelled: [Double] = []
        for station in stations {
            let wav = onair.home.file("relayed\(station.gain).wav")
            let relay = try onair.start(["relay", url(station.mount), "--to", "wav:\(wav.path)", "--normalize"])
            XCTAssertTrue(eventually(timeout: 20) {
                ((try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0) > 6 * 44_100 * 4
            }, "6 s relayed: \(relay.stderrText)")
            relay.stop(grace: 10)
            XCTAssertEqual(relay.result().status, 0, relay.stderrText)
            levelled.append(try LoudnessReading.integrated(of: wav))
        }
        XCTAssertEqual(levelled[0], -16, accuracy: 1, "\(levelled)")
        XCTAssertEqual(levelled[1], -16, accuracy: 1, "\(levelled)")
        XCTAssertEqual(levelled[0] - levelled[1], 0, accuracy: 1, "10 LU apart as sent, within 1 LU relayed")
    }

    func testRecordingsKeepTheirAudioGetTheirLoudnessAndPlayLevelled() throws {
        let record = try onair.run(["record", url(stations[0].mount), url(stations[1].mount), "--duration", "5", "--json", "--normalize"])
        XCTAssertTrue(record.succeeded, "\(record)")
        let list = try onair.run(["recordings", "list", "--json"])
        let entries = OnairBinary.events(list.stdoutText).sorted { ($0["loudness"] as? Double ?? 0) > ($1["loudness"] as? Double ?? 0) }
        XCTAssertEqual(entries.count, 2, list.stdoutText)
        guard entries.count == 2 else { return }
        for (entry, station) in zip(entries, stations) {
            let file = URL(fileURLWithPath: try XCTUnwrap(entry["file"] as? String))
            let loudness = try XCTUnwrap(entry["loudness"] as? Double, "\(entry)")
            // The file keeps the audio as sent: the index's loudness is the file's own.
            XCTAssertEqual(loudness, try LoudnessReading.integrated(of: file), accuracy: 0.5, station.mount)
            let gain = try XCTUnwrap(FFprobe.inspect(file).tags.first { $0.key.lowercased() == "replaygain_track_gain" }?.value)
            XCTAssertEqual(Double(gain.replacingOccurrences(of: " dB", with: "")) ?? 0, -18 - loudness, accuracy: 0.01)

            let wav = onair.home.file("played\(station.gain).wav")
            let play = try onair.run(["play", String(try XCTUnwrap(entry["id"] as? Int)), "--start", "0", "--normalize",
                                      "--sink", "wav:\(wav.path)"])
            XCTAssertTrue(play.succeeded, "\(play)")
            XCTAssertEqual(try LoudnessReading.integrated(of: wav), -16, accuracy: 1, station.mount)
            // Levelled by its tag from the first sample: nothing held back to measure.
            XCTAssertGreaterThan(try PCMAudio(wavFile: wav).slice(from: 0.05, to: 0.3).rmsDBFS(), -40, station.mount)
        }
        XCTAssertEqual((entries[0]["loudness"] as? Double ?? 0) - (entries[1]["loudness"] as? Double ?? 0), 10, accuracy: 0.5)
        let table = try onair.run(["recordings"])
        XCTAssertTrue(table.stdoutText.contains("LOUDNESS") && table.stdoutText.contains(" LUFS"), table.stdoutText)
    }
}
