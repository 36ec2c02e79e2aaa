import ClipDetection
import Foundation
import Store
import TestSupport
import XCTest

/// The clips as `onair clips` keeps them: fingerprinted from a file or a stretch of it by FFmpeg's decoders, in
/// onair's database, found again by the matcher in the same audio encoded otherwise.
final class ClipLibraryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-cliplib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testAClipFromAStretchOfAFileIsKeptAndFoundInTheSameAudioEncodedOtherwise() throws {
        // 40 s of music in an MP3 at 128 kbit/s; the clip is its seconds 12 to 27.
        let music = ChordMusic(seed: 5).samples(seconds: 40)
        let mp3 = try encoded(music, as: "music.mp3", options: ["-c:a", "libmp3lame", "-b:a", "128k"])
        let (seconds, fingerprint) = try ClipFile.fingerprint(mp3.path, start: 12, length: 15)
        XCTAssertEqual(seconds, 15, accuracy: 0.05)

        // Times from a person or a request, however odd, are refused or clamped, never a trap: past the end is too short,
        // a length past the end is to the end.
        XCTAssertThrowsError(try ClipFile.fingerprint(mp3.path, start: 1e300, length: 10)) { XCTAssertTrue("\($0)".contains("too short"), "\($0)") }
        XCTAssertThrowsError(try ClipFile.fingerprint(mp3.path, start: .infinity))
        XCTAssertThrowsError(try ClipFile.fingerprint(mp3.path, start: 0, length: .nan))
        XCTAssertEqual(try ClipFile.fingerprint(mp3.path, start: 30, length: 1e300).seconds, 10, accuracy: 0.1)

        let library = try ClipLibrary(database: try OnairDatabase(directory: directory))
        let added = try library.add(name: "Summer sale", kind: .ad, seconds: seconds, fingerprint: fingerprint)
        XCTAssertThrowsError(try library.add(name: "Summer sale", kind: .ad, seconds: seconds, fingerprint: fingerprint)) { error in
            XCTAssertEqual("\(error)", "a clip named \"Summer sale\" is already in the library (onair clips remove \"Summer sale\" first)")
        }
        let reopened = try ClipLibrary(database: try OnairDatabase(directory: directory)).all()
        XCTAssertEqual(reopened, [added], "kept as added, fingerprint and all")

        // The whole piece again, as an AAC file: the clip is found where it is in it.
        let aac = try encoded(music, as: "music.m4a", options: ["-c:a", "aac", "-b:a", "96k"])
        let (_, whole) = try ClipFile.fingerprint(aac.path)
        var matcher = ClipMatcher(index: ClipIndex(reopened))
        let matches = matcher.append(whole.items) + matcher.finish()
        XCTAssertEqual(matches.count, 1, "\(matches)")
        XCTAssertEqual(matches.first?.streamSeconds ?? 0, 12, accuracy: 0.5)
        XCTAssertEqual(matches.first?.isPartial, false)

        XCTAssertEqual(try library.remove("Summer sale")?.id, added.id)
        XCTAssertEqual(try library.all(), [])
        XCTAssertNil(try library.remove("\(added.id)"))
    }

    func testAFileTooShortOrNotAudioIsOneLine() throws {
        let short = try encoded(ChordMusic(seed: 6).samples(seconds: 4), as: "short.wav", options: [])
        XCTAssertThrowsError(try ClipFile.fingerprint(short.path)) { error in
            XCTAssertEqual("\(error)", "\(short.path): 4.0 s of audio is too short to be found again (a clip needs at least 8 s)")
        }
        let text = directory.appendingPathComponent("notes.mp3")
        try Data("not audio at all".utf8).write(to: text)
        XCTAssertThrowsError(try ClipFile.fingerprint(text.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(text.path): "), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    private func encoded(_ samples: [Int16], as name: String, options: [String]) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try ChordMusic.encode(samples, to: file, options: options)
        return file
    }
}
