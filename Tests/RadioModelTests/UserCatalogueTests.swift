import Foundation
import XCTest
@testable import RadioModel

final class UserCatalogueTests: XCTestCase {
    func testAddCreatesTheFileAndItsDirectories() throws {
        let home = try makeTemporaryDirectory()
        let user = UserCatalogue(paths: AppPaths(environment: ["ONAIR_HOME": home.path]))
        let added = station("my-fm", "My FM", tags: ["local"], kind: .hls)

        try user.add(added)

        XCTAssertEqual(user.url.path, home.path + "/config/stations.json")
        XCTAssertEqual(try user.stations(), [added])
        XCTAssertEqual(try Catalogue.stations(inFileAt: user.url), [added])
    }

    func testAddKeepsOtherStationsAndReplacesOneWithTheSameID() throws {
        let user = UserCatalogue(url: try makeTemporaryDirectory().appendingPathComponent("stations.json"))
        try user.add(station("one", "One"))
        try user.add(station("two", "Two"))
        try user.add(station("one", "One, renamed"))

        XCTAssertEqual(try user.stations().map(\.name), ["One, renamed", "Two"])
    }

    func testTheFileIsPrettyWithSortedKeysAndNoLeftovers() throws {
        let directory = try makeTemporaryDirectory()
        let user = UserCatalogue(url: directory.appendingPathComponent("stations.json"))
        try user.add(station("one", "One"))

        let text = try String(contentsOf: user.url, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"stations\" : [\n"), text)
        XCTAssertTrue(text.hasSuffix("\"version\" : 1\n}\n"), text)
        XCTAssertTrue(text.contains("\"url\" : \"https://example.org/one\""), "slashes stay unescaped")
        let country = try XCTUnwrap(text.range(of: "\"country\""))
        let id = try XCTUnwrap(text.range(of: "\"id\""))
        XCTAssertLessThan(country.lowerBound, id.lowerBound)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["stations.json"])
    }

    func testAnInvalidStationIsNotAddedAndTheFileIsUntouched() throws {
        let user = UserCatalogue(url: try makeTemporaryDirectory().appendingPathComponent("stations.json"))
        try user.add(station("one", "One"))
        let before = try Data(contentsOf: user.url)
        var bad = station("bad", "Bad")
        bad.streams[0].url = "rtsp://example.org/live"

        XCTAssertThrowsError(try user.add(bad)) { error in
            XCTAssertEqual("\(error)", "\(user.url.path): stations[1].streams[0].url: expected an http:// or https:// URL, got \"rtsp://example.org/live\" (station \"bad\" not added)")
        }
        XCTAssertEqual(try Data(contentsOf: user.url), before)
    }

    func testAMalformedExistingFileIsNotOverwritten() throws {
        let user = UserCatalogue(url: try makeTemporaryDirectory().appendingPathComponent("stations.json"))
        try "{\"version\": 1, \"stations\": [\n  {\"id\": oops}\n]}".write(to: user.url, atomically: true, encoding: .utf8)

        XCTAssertThrowsError(try user.add(station("one", "One"))) { error in
            XCTAssertEqual("\(error)", "\(user.url.path):2: stations[0].id: expected a value, got 'oops' (strings need double quotes)")
        }
        XCTAssertEqual(try String(contentsOf: user.url, encoding: .utf8), "{\"version\": 1, \"stations\": [\n  {\"id\": oops}\n]}")
    }

    func testAnUnwritableDirectoryIsReportedAsOneLine() throws {
        let directory = try makeTemporaryDirectory()
        let blocker = directory.appendingPathComponent("config")
        try Data().write(to: blocker)  // a file where the directory should be
        let user = UserCatalogue(url: blocker.appendingPathComponent("stations.json"))

        XCTAssertThrowsError(try user.add(station("one", "One"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(user.url.path): cannot write the file: "), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }
}
