import Foundation
import XCTest
@testable import StreamInput

/// The playlists of `Fixtures/hls-quirks`: our own, each reproducing a construct another parser's tests
/// or a broadcaster showed (named in the file's comment).
enum HLSQuirkFixtures {
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hls-quirks/\(name)"))
    }

    static func master(_ name: String, url: String) throws -> [HLSVariant] {
        guard case .hlsMaster(let variants) = try PlaylistParser.parse(data(name), url: url) else {
            throw PlaylistError(url: url, line: nil, message: "\(name) was not read as a master playlist")
        }
        return variants
    }

    /// The lines as `PlaylistParser` hands them to the HLS parsers: split and trimmed.
    static func lines(_ name: String) throws -> [String] {
        String(decoding: try data(name), as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
