import Foundation
import RadioModel

/// The title a listener should see, from the raw StreamTitle value as stations really send it.
///
/// - iHeart (revma): `Artist - text="Title" song_spot="M" … amgArtworkURL="…" length="00:03:27" …`;
///   song_spot M is a song, anything else (T) a station message.
/// - Southern Cross Austereo and Bauer: `title="…",artist="…",url="…"`.
/// - HTML entities (`&amp;`, `&#39;`), which some playout systems leave in.
///
/// Anything else is shown as it came: a title with `=` in it ("Advertisement_Start_Length=00:00:29.960")
/// is not a payload.
public struct StationTitle: Sendable, Equatable {
    public var text: String
    public var details: TitleDetails?

    public init(raw: String) {
        // After the entities: `&#27;` or `&#x202E;` would otherwise become what TitleText took out of the bytes.
        let decoded = UntrustedText.printable(HTMLEntities.decode(raw))
        if let iHeart = Self.iHeart(decoded) {
            self = iHeart
        } else if let pairs = Self.commaPairs(decoded) {
            self = pairs
        } else {
            text = decoded
            details = nil
        }
    }

    private init(text: String, details: TitleDetails) {
        self.text = text
        self.details = details.isEmpty ? nil : details
    }

    /// `Artist - text="Title" key="value" …`: the artist is what precedes ` - text=`.
    private static func iHeart(_ raw: String) -> StationTitle? {
        guard let marker = raw.range(of: "text=\"") else { return nil }
        let fields = quotedPairs(String(raw[marker.lowerBound...]), separator: " ")
        guard let title = fields["text"], fields["song_spot"] != nil || fields["amgArtworkURL"] != nil else { return nil }
        var artist = String(raw[..<marker.lowerBound]).trimmingCharacters(in: .whitespaces)
        if artist.hasSuffix("-") { artist = String(artist.dropLast()).trimmingCharacters(in: .whitespaces) }
        let text = [artist, title].filter { !$0.isEmpty }.joined(separator: " - ")
        let kind: TitleDetails.Kind? = fields["song_spot"].map { $0 == "M" ? .song : .stationMessage }
        let length = fields["length"].flatMap(clockSeconds).flatMap { $0 > 0 ? $0 : nil }
        let artwork = fields["amgArtworkURL"].flatMap { $0.isEmpty ? nil : $0 }
        return StationTitle(text: text, details: TitleDetails(artworkURL: artwork, length: length, kind: kind))
    }

    /// `title="…",artist="…",url="…"`: artist and title joined; a title that is only a URL (Bauer's API
    /// link) is no title at all.
    private static func commaPairs(_ raw: String) -> StationTitle? {
        guard raw.hasPrefix("title=\"") else { return nil }
        let fields = quotedPairs(raw, separator: ",")
        guard var title = fields["title"] else { return nil }
        if title.hasPrefix("http://") || title.hasPrefix("https://") { title = "" }
        let artist = fields["artist"] ?? ""
        // Some stations put "Artist - Title" in both fields.
        let text = artist.isEmpty || title.isEmpty || title.contains(artist) ? title : "\(artist) - \(title)"
        let url = fields["url"].flatMap { $0.isEmpty || $0 == fields["title"] ? nil : $0 }
        return StationTitle(text: text, details: TitleDetails(artworkURL: url))
    }

    /// `key="value"` pairs divided by `separator`; a value ends at a quote followed by the separator
    /// or the end, so quotes and separators inside values survive.
    static func quotedPairs(_ text: String, separator: Character) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.range(of: "=\"") {
            let key = rest[..<equals.lowerBound].trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
            var valueEnd = rest.endIndex
            var next = rest.endIndex
            var search = equals.upperBound
            while let quote = rest[search...].firstIndex(of: "\"") {
                let after = rest.index(after: quote)
                if after == rest.endIndex || rest[after] == separator {
                    valueEnd = quote
                    next = after
                    break
                }
                search = after
            }
            if valueEnd == rest.endIndex, rest.last == "\"" { valueEnd = rest.index(before: rest.endIndex) }
            fields[key] = String(rest[equals.upperBound..<max(equals.upperBound, valueEnd)])
            rest = rest[next...]
        }
        return fields
    }

    /// "00:03:27" → 207.
    private static func clockSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":").map { Double($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let total = parts.reduce(0) { $0 * 60 + $1! }
        // "inf" and "1e300" are numbers too: a length no song has is none.
        return total.isFinite && total <= ClockText.longest ? total : nil
    }
}

/// The character references HTML and XML playout systems leave in titles.
enum HTMLEntities {
    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
    ]

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            if let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";"),
               let character = character(for: rest[afterAmpersand..<semicolon]) {
                result += character
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }

    private static func character(for name: Substring) -> String? {
        if let known = named[name.lowercased()] { return known }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        guard let value, value >= 0x20, let scalar = Unicode.Scalar(value) else { return nil }
        return String(scalar)
    }
}
