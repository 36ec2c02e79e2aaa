import Foundation
import XCTest
@testable import Recording

final class FileNameTemplateTests: XCTestCase {
    private let base = URL(fileURLWithPath: "/music/onair", isDirectory: true)
    private let start = Date(timeIntervalSince1970: 1_795_327_200) // 2026-11-22T06:00:00Z

    private func path(_ template: FileNameTemplate, station: String = "FIP", programme: String? = nil, title: String? = nil,
                      ext: String = "mp3") -> String {
        template.path(for: .init(station: station, programme: programme, title: title, start: start,
                                 timeZone: TimeZone(identifier: "Europe/Paris")!, fileExtension: ext), base: base).path
    }

    func testTheDefaultTemplateSortsByStationAndLocalTime() {
        XCTAssertEqual(path(.standard, programme: "Jazz à FIP"), "/music/onair/FIP/2026-11-22 07-00 Jazz à FIP.mp3")
        XCTAssertEqual(path(.standard), "/music/onair/FIP/2026-11-22 07-00.mp3", "no programme: no dangling space")
        XCTAssertEqual(path(.tracks, title: "Nina Simone - Feeling Good", ext: "m4a"),
                       "/music/onair/FIP/2026-11-22 07-00 Nina Simone - Feeling Good.m4a")
    }

    func testHostileValuesStayOneHarmlessNameInsideTheirDirectory() throws {
        let template = try FileNameTemplate("{station}/{title}.{ext}")
        for hostile in ["../../x", "/etc/passwd", "..", ".", "a/../../b", "\u{1B}[31mred\u{7}\u{0}", "-rf", "  ...  "] {
            let result = URL(fileURLWithPath: path(template, title: hostile))
            XCTAssertEqual(result.deletingLastPathComponent().path, "/music/onair/FIP", hostile)
            let name = result.lastPathComponent
            XCTAssertFalse(name.hasPrefix(".") || name.hasPrefix("-"), "\(hostile) → \(name)")
            XCTAssertFalse(name.contains(".."), "\(hostile) → \(name)")
            XCTAssertFalse(name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(hostile) → \(name)")
        }
        XCTAssertEqual(URL(fileURLWithPath: path(template, title: "../../x")).lastPathComponent, "x.mp3")
        XCTAssertEqual(URL(fileURLWithPath: path(template, title: "/etc/passwd")).lastPathComponent, "etc-passwd.mp3")
        XCTAssertEqual(URL(fileURLWithPath: path(template, title: "")).lastPathComponent, "untitled.mp3")
        XCTAssertEqual(path(template, station: "../.."), "/music/onair/untitled/untitled.mp3")
    }

    func testLongTitlesAreCutToFitAFileName() throws {
        let long = String(repeating: "Ünïcødé ", count: 60)
        let name = URL(fileURLWithPath: path(try FileNameTemplate("{title} {title} {title}.{ext}"), title: long)).lastPathComponent
        XCTAssertLessThanOrEqual(name.utf8.count, FileNameTemplate.maxStemBytes + 4)
        XCTAssertTrue(name.hasSuffix(".mp3"))
        XCTAssertNotNil(String(validating: Array(name.utf8), as: UTF8.self), "cut between characters")
    }

    func testTheFormatDecidesTheExtension() throws {
        XCTAssertEqual(path(try FileNameTemplate("/tmp/show.mp3"), ext: "m4a"), "/tmp/show.m4a")
        XCTAssertEqual(path(try FileNameTemplate("show"), ext: "opus"), "/music/onair/show.opus")
        XCTAssertEqual(path(try FileNameTemplate("show.v2"), ext: "opus"), "/music/onair/show.v2.opus")
    }

    /// Where a daemon taking an episode over looks for the part its template made: below every path it can make.
    func testTheFixedDirectoryIsTheLongestPrefixWithoutATokenAndHoldsEveryPath() throws {
        let cases: [(String, String)] = [
            ("/srv/radio/{station}/{date}.{ext}", "/srv/radio"),
            ("/srv/radio/shows/{date} {time}.{ext}", "/srv/radio/shows"),
            ("/srv/{station} radio/x/{date}.{ext}", "/srv"),
            ("{station}/{date}.{ext}", "/music/onair"),
            ("archive/{station}/{date}.{ext}", "/music/onair/archive"),
            ("/show.mp3", "/"),
        ]
        for (text, directory) in cases {
            let template = try FileNameTemplate(text)
            XCTAssertEqual(template.fixedDirectory(base: base).path, directory, text)
            XCTAssertTrue(path(template, programme: "P", title: "T").hasPrefix(directory == "/" ? "/" : directory + "/"), text)
        }
    }

    func testATokenValueThatLooksLikeATokenIsNotExpanded() throws {
        XCTAssertEqual(path(try FileNameTemplate("{station} {title}"), station: "{title}", title: "x"), "/music/onair/{title} x.mp3")
    }

    func testUnknownTokensAreRefused() {
        XCTAssertThrowsError(try FileNameTemplate("{station}/{song}.{ext}")) { error in
            XCTAssertTrue("\(error)".contains("{song}"), "\(error)")
        }
        XCTAssertThrowsError(try FileNameTemplate("{station"))
        XCTAssertThrowsError(try FileNameTemplate("dir/"))
    }

    func testATakenNameGetsANumberAndNothingIsReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-unique-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let desired = directory.appendingPathComponent("show.mp3")
        try Data("first".utf8).write(to: desired)
        var placed: [String] = []
        for content in ["second", "third"] {
            let source = directory.appendingPathComponent(".tmp")
            try Data(content.utf8).write(to: source)
            placed.append(try UniquePath.move(source, toFreeNameLike: desired).lastPathComponent)
        }
        XCTAssertEqual(placed, ["show (2).mp3", "show (3).mp3"])
        XCTAssertEqual(try String(contentsOf: desired, encoding: .utf8), "first")
    }

    func testAThousandNamesakesEachGetTheirOwnNameWithoutTryingEveryTakenOne() throws {
        let desired = FileManager.default.temporaryDirectory.appendingPathComponent("onair-namesakes-\(UUID().uuidString)/bench.mp3")
        var taken: Set<String> = []
        var tries = 0
        for _ in 0..<1000 {
            let name = try UniquePath.firstFree(desired, purpose: "test") { candidate -> String? in
                tries += 1
                return taken.insert(candidate.lastPathComponent).inserted ? candidate.lastPathComponent : nil
            }
            XCTAssertNotNil(name, "a free name was found")
        }
        XCTAssertEqual(taken.count, 1000)
        XCTAssertTrue(taken.contains("bench.mp3") && taken.contains("bench (1000).mp3"))
        XCTAssertLessThan(tries, 2_000, "each search starts where the last one found a free name, not at the first")
    }
}
