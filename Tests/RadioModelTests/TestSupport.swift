import Foundation
import XCTest
@testable import RadioModel

extension XCTestCase {
    /// A fresh directory, removed when the test ends.
    func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("onair-radiomodel-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Loads `text` as a catalogue file and returns the error it must raise.
    func catalogueError(_ text: String, path: String = "/cfg/stations.json",
                        file: StaticString = #filePath, line: UInt = #line) -> CatalogueError? {
        do {
            let stations = try Catalogue.stations(decoding: Data(text.utf8), path: path)
            XCTFail("expected an error, loaded \(stations.count) stations", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}

/// The 1-based line of the only line of `text` containing `needle`.
func lineNumber(of needle: String, in text: String, file: StaticString = #filePath, line: UInt = #line) -> Int {
    let lines = text.components(separatedBy: "\n")
    let matches = lines.indices.filter { lines[$0].contains(needle) }
    XCTAssertEqual(matches.count, 1, "\(needle) should appear on exactly one line", file: file, line: line)
    return (matches.first ?? -1) + 1
}

/// A catalogue file in the shipped layout, one station object per entry of `stations`.
func catalogueText(_ stations: [String], version: Int = 1) -> String {
    "{\n  \"version\": \(version),\n  \"stations\": [\n" + stations.joined(separator: ",\n") + "\n  ]\n}\n"
}

/// One station object; the overrides replace the default lines wholesale (pass the JSON text of a field).
func stationText(id: String = "test-fm", name: String = "Test FM", country: String = "\"GB\"", language: String = "en",
                 timeZone: String = "\"Europe/London\"", extra: [String] = [],
                 streams: [String] = [#"{"url": "https://example.org/live.mp3", "kind": "icy", "codec": "mp3", "bitrate": 128}"#],
                 programmes: [String] = []) -> String {
    var fields = [
        "\"id\": \"\(id)\"",
        "\"name\": \"\(name)\"",
        "\"country\": \(country)",
        "\"language\": \"\(language)\"",
        "\"timeZone\": \(timeZone)",
    ] + extra
    fields.append("\"streams\": [\n        " + streams.joined(separator: ",\n        ") + "\n      ]")
    if !programmes.isEmpty {
        fields.append("\"programmes\": [\n        " + programmes.joined(separator: ",\n        ") + "\n      ]")
    }
    return "    {\n      " + fields.joined(separator: ",\n      ") + "\n    }"
}

func station(_ id: String, _ name: String, country: String = "GB", language: String = "en", tags: [String] = [],
             kind: StreamKind = .icy) -> Station {
    Station(id: id, name: name, country: country, language: language, timeZone: "Europe/London", tags: tags,
            streams: [StreamEndpoint(url: "https://example.org/\(id)", kind: kind, codec: "mp3", bitrate: 128)])
}

/// The repository's shipped stations.json.
let shippedCatalogueURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("stations.json")
