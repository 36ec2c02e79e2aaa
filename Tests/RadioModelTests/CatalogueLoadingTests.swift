import Foundation
import XCTest
@testable import RadioModel

final class CatalogueLoadingTests: XCTestCase {
    func testDecodesEveryFieldOfAStation() throws {
        let text = catalogueText([stationText(
            id: "bbc-radio-3", name: "BBC Radio 3",
            extra: [#""homepage": "https://www.bbc.co.uk/radio3""#, #""logo": "https://example.org/r3.png""#, #""tags": ["classical", "jazz"]"#,
                    #""charset": "windows-1251""#],
            streams: [#"{"url": "https://example.org/r3.m3u8", "kind": "hls", "codec": "aac", "bitrate": 320}"#,
                      #"{"url": "http://example.org/r3.mp3", "kind": "icy"}"#],
            programmes: [#"{"id": "jazz-record-requests", "name": "Jazz Record Requests", "description": "Listeners' picks.", "slots": [{"days": ["sat"], "start": "16:00", "duration": "1h"}, {"days": ["mon", "fri"], "start": "23:30", "duration": "1h30m"}]}"#])])

        let stations = try Catalogue.stations(decoding: Data(text.utf8), path: "stations.json")

        XCTAssertEqual(stations, [Station(
            id: "bbc-radio-3", name: "BBC Radio 3", homepage: "https://www.bbc.co.uk/radio3", logo: "https://example.org/r3.png", country: "GB",
            language: "en", timeZone: "Europe/London", tags: ["classical", "jazz"], charset: "windows-1251",
            streams: [StreamEndpoint(url: "https://example.org/r3.m3u8", kind: .hls, codec: "aac", bitrate: 320),
                      StreamEndpoint(url: "http://example.org/r3.mp3", kind: .icy)],
            programmes: [Programme(id: "jazz-record-requests", name: "Jazz Record Requests", description: "Listeners' picks.",
                                   slots: [BroadcastSlot(days: [.sat], start: ClockTime(hour: 16, minute: 0), duration: TimeSpan(seconds: 3600)),
                                           BroadcastSlot(days: [.mon, .fri], start: ClockTime(hour: 23, minute: 30), duration: TimeSpan(seconds: 5400))])])])
    }

    func testUserStationsReplaceShippedOnesWithTheSameIDAndAddTheRest() throws {
        let directory = try makeTemporaryDirectory()
        let shippedURL = directory.appendingPathComponent("shipped.json")
        let userURL = directory.appendingPathComponent("config/stations.json")
        try catalogueText([stationText(id: "fip", name: "FIP"), stationText(id: "kexp", name: "KEXP")])
            .write(to: shippedURL, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: userURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try catalogueText([stationText(id: "fip", name: "FIP (my relay)"), stationText(id: "local-fm", name: "Local FM")])
            .write(to: userURL, atomically: true, encoding: .utf8)

        let catalogue = try Catalogue.load(shippedURL: shippedURL, userURL: userURL)

        XCTAssertEqual(catalogue.stations.map(\.id), ["fip", "kexp", "local-fm"])
        XCTAssertEqual(catalogue.station(id: "fip")?.name, "FIP (my relay)")
        XCTAssertEqual(catalogue.station(id: "kexp")?.name, "KEXP")
        XCTAssertNil(catalogue.station(id: "nope"))
    }

    /// The daemon's reader keeps the catalogue while its files stay as they were, and reads them again as
    /// soon as one changes: a station written to the user's file is there at the next read, a broken
    /// file is its error at the next read, and the files mended are read again.
    func testTheDaemonsReaderSeesEveryChangeOfEitherFile() throws {
        let directory = try makeTemporaryDirectory()
        let shippedURL = directory.appendingPathComponent("shipped.json")
        let userURL = directory.appendingPathComponent("user.json")
        try catalogueText([stationText(id: "fip", name: "FIP")]).write(to: shippedURL, atomically: true, encoding: .utf8)
        let reader = CatalogueReader(shippedURL: shippedURL, userURL: userURL)
        XCTAssertEqual(try reader.read().stations.map(\.id), ["fip"])

        try UserCatalogue(url: userURL).add(Station(id: "local-fm", name: "Local FM", country: "GB", language: "en", timeZone: "Europe/London",
                                                    streams: [StreamEndpoint(url: "http://example.org/local.mp3", kind: .icy)]))
        XCTAssertEqual(try reader.read().stations.map(\.id), ["fip", "local-fm"])

        // The same size, written in place (the same inode): only the modification time tells.
        let renamed = try String(contentsOf: shippedURL, encoding: .utf8).replacingOccurrences(of: "\"FIP\"", with: "\"PIF\"")
        let handle = try FileHandle(forWritingTo: shippedURL)
        try handle.write(contentsOf: Data(renamed.utf8))
        try handle.close()
        XCTAssertEqual(try reader.read().station(id: "fip")?.name, "PIF")

        try "{".write(to: userURL, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try reader.read())
        try catalogueText([stationText(id: "kexp", name: "KEXP")]).write(to: userURL, atomically: true, encoding: .utf8)
        XCTAssertEqual(try reader.read().stations.map(\.id), ["kexp", "fip"], "by name: KEXP, PIF")
        try FileManager.default.removeItem(at: userURL)
        XCTAssertEqual(try reader.read().stations.map(\.id), ["fip"])
    }

    func testAMissingUserFileIsNoError() throws {
        let directory = try makeTemporaryDirectory()
        let shippedURL = directory.appendingPathComponent("stations.json")
        try catalogueText([stationText()]).write(to: shippedURL, atomically: true, encoding: .utf8)

        let catalogue = try Catalogue.load(shippedURL: shippedURL, userURL: directory.appendingPathComponent("absent.json"))

        XCTAssertEqual(catalogue.stations.map(\.id), ["test-fm"])
    }

    func testAMissingShippedFileIsReportedWithItsPath() throws {
        let directory = try makeTemporaryDirectory()
        let missing = directory.appendingPathComponent("nowhere/stations.json")

        XCTAssertThrowsError(try Catalogue.load(shippedURL: missing, userURL: directory.appendingPathComponent("user.json"))) {
            XCTAssertEqual("\($0)", "\(missing.path): cannot read the file: No such file or directory")
        }
    }

    func testAMalformedUserFileIsReportedEvenWhenTheShippedOneIsFine() throws {
        let directory = try makeTemporaryDirectory()
        let userURL = directory.appendingPathComponent("stations.json")
        try "{\"version\": 1, \"stations\": [}".write(to: userURL, atomically: true, encoding: .utf8)

        XCTAssertThrowsError(try Catalogue.load(shippedURL: shippedCatalogueURL, userURL: userURL)) {
            XCTAssertTrue("\($0)".hasPrefix(userURL.path + ":1: stations[0]: expected a value, got '}'"), "\($0)")
        }
    }

    func testStationsAreSortedByNameIgnoringCaseAndAccents() {
        let catalogue = Catalogue(stations: [station("b", "beta"), station("e", "Écho"), station("a", "Alpha"),
                                             station("d", "delta"), station("c", "Charlie")])

        XCTAssertEqual(catalogue.stations.map(\.name), ["Alpha", "beta", "Charlie", "delta", "Écho"])
    }

    func testShippedCatalogueIsValidAndBroad() throws {
        let stations = try Catalogue.stations(inFileAt: shippedCatalogueURL)

        XCTAssertGreaterThanOrEqual(stations.count, 24)
        XCTAssertEqual(Set(stations.map(\.id)).count, stations.count, "ids must be unique")
        XCTAssertGreaterThanOrEqual(Set(stations.map(\.country)).count, 8)
        XCTAssertEqual(Set(stations.flatMap { $0.streams.map(\.kind) }), [.icy, .hls])
        XCTAssertGreaterThanOrEqual(stations.filter { !$0.programmes.isEmpty }.count, 8)
        XCTAssertTrue(stations.contains { $0.charset == "windows-1251" })
        for station in stations {
            XCTAssertFalse(station.tags.isEmpty, "\(station.id) has no tags")
            XCTAssertNotNil(station.homepage, "\(station.id) has no homepage")
            XCTAssertTrue(station.streams.allSatisfy { $0.codec != nil }, "\(station.id) has a stream without codec")
        }
    }
}
