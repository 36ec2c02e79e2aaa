import Foundation

/// What an id in the Subsonic API names. Stations are artists, a programme's recordings (or, for
/// recordings of no programme, a station's) are an album, a recording is a track; podcasts and their
/// episodes, and the catalogue's stations as internet radio, have ids of their own. Keys that may hold
/// any character (a station's URL) are carried in base64url, so an id is always one plain token.
public enum SubsonicID: Equatable, Hashable, Sendable {
    case artist(station: String)
    case album(Album)
    case recording(Int64)
    case podcast(Int64)
    case episode(Int64)
    case radio(station: String)

    public enum Album: Equatable, Hashable, Sendable {
        case programme(String)
        case station(String)
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("ar", 2): guard let key = Self.decode(parts[1]) else { return nil }; self = .artist(station: key)
        case ("ra", 2): guard let key = Self.decode(parts[1]) else { return nil }; self = .radio(station: key)
        case ("al", 3):
            guard let key = Self.decode(parts[2]) else { return nil }
            switch parts[1] {
            case "p": self = .album(.programme(key))
            case "s": self = .album(.station(key))
            default: return nil
            }
        case ("rec", 2): guard let id = Int64(parts[1]), id > 0 else { return nil }; self = .recording(id)
        case ("pod", 2): guard let id = Int64(parts[1]), id > 0 else { return nil }; self = .podcast(id)
        case ("ep", 2): guard let id = Int64(parts[1]), id > 0 else { return nil }; self = .episode(id)
        default: return nil
        }
    }

    public var text: String {
        switch self {
        case .artist(let station): "ar-" + Self.encode(station)
        case .radio(let station): "ra-" + Self.encode(station)
        case .album(.programme(let programme)): "al-p-" + Self.encode(programme)
        case .album(.station(let station)): "al-s-" + Self.encode(station)
        case .recording(let id): "rec-\(id)"
        case .podcast(let id): "pod-\(id)"
        case .episode(let id): "ep-\(id)"
        }
    }

    private static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "_").replacingOccurrences(of: "/", with: ".")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decode(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 4096 else { return nil }
        var base64 = text.replacingOccurrences(of: "_", with: "+").replacingOccurrences(of: ".", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
