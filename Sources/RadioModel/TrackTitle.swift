import Foundation

/// A stream title split the way stations write it: "Artist - Title".
public struct TrackTitle: Sendable, Equatable {
    public let artist: String?
    public let title: String

    public init(_ text: String) {
        if let range = text.range(of: " - ") {
            artist = String(text[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
            title = String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        } else {
            artist = nil
            title = text
        }
    }
}
