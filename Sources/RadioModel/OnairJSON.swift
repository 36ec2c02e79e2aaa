import Foundation

/// The one JSON shape onair writes and reads — `--json` output, the daemon's control channel, the
/// database's JSON columns: keys sorted, slashes plain, dates as ISO 8601 with milliseconds
/// (`Timestamp.format`), read back by `Timestamp.parse`.
public enum OnairJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
            }
            return date
        }
        return decoder
    }()

    /// The value's JSON; `{}` should it not encode (nothing onair encodes can fail).
    public static func data<T: Encodable>(_ value: T) -> Data { (try? encoder.encode(value)) ?? Data("{}".utf8) }
}
