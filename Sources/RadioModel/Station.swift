import Foundation

/// A radio station as the catalogue describes it.
public struct Station: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var homepage: String?
    /// The station's logo or artwork (an http(s) URL to an image): what casting and podcast feeds show.
    public var logo: String?
    /// ISO 3166-1 alpha-2 country code, e.g. "GB".
    public var country: String
    /// ISO 639-1 language code, e.g. "en".
    public var language: String
    /// IANA time zone the station's programme times are given in.
    public var timeZone: String
    public var tags: [String]
    /// Charset of ICY titles when they are not valid UTF-8 (e.g. "windows-1251"); Latin-1 if absent.
    public var charset: String?
    /// The channel id an XMLTV programme guide lists the station under (`<channel id="…">`).
    public var guideID: String?
    /// Streams in order of preference.
    public var streams: [StreamEndpoint]
    public var programmes: [Programme]
    /// Seconds of pre-roll (an ad or a jingle) the station's server sends at the start of every
    /// connection: recordings mark it `[pre-roll]` so it can be cut.
    public var preRoll: Double?

    public init(id: String, name: String, homepage: String? = nil, logo: String? = nil, country: String, language: String,
                timeZone: String, tags: [String] = [], charset: String? = nil, guideID: String? = nil,
                streams: [StreamEndpoint], programmes: [Programme] = [], preRoll: Double? = nil) {
        self.id = id; self.name = name; self.homepage = homepage; self.logo = logo; self.country = country
        self.language = language; self.timeZone = timeZone; self.tags = tags; self.charset = charset; self.guideID = guideID
        self.streams = streams; self.programmes = programmes; self.preRoll = preRoll
    }

    enum CodingKeys: String, CodingKey {
        case id, name, homepage, logo, country, language, timeZone, tags, charset, guideID, streams, programmes, preRoll
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        homepage = try c.decodeIfPresent(String.self, forKey: .homepage)
        logo = try c.decodeIfPresent(String.self, forKey: .logo)
        country = try c.decode(String.self, forKey: .country)
        language = try c.decode(String.self, forKey: .language)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
        charset = try c.decodeIfPresent(String.self, forKey: .charset)
        guideID = try c.decodeIfPresent(String.self, forKey: .guideID)
        streams = try c.decode([StreamEndpoint].self, forKey: .streams)
        programmes = try c.decodeIfPresent([Programme].self, forKey: .programmes) ?? []
        preRoll = try c.decodeIfPresent(Double.self, forKey: .preRoll)
    }
}

/// How a stream is delivered.
public enum StreamKind: String, Codable, Sendable, Equatable, CaseIterable {
    /// Icecast/Shoutcast: one long HTTP response, titles interleaved at icy-metaint.
    case icy
    /// HTTP Live Streaming: a playlist of segments.
    case hls
    /// MPEG-DASH: an MPD describing segments on the presentation clock.
    case dash

    public init(from decoder: Decoder) throws { self = try Self.decodeChoice(from: decoder) }
}

/// One published stream of a station.
public struct StreamEndpoint: Codable, Sendable, Equatable {
    public var url: String
    public var kind: StreamKind
    /// Codec: mp3, aac, he-aac, vorbis, opus or flac (he-aac is told apart from aac because players
    /// and bandwidth differ, though FFmpeg decodes both as "aac").
    public var codec: String?
    /// Nominal bitrate in kbit/s.
    public var bitrate: Int?

    public init(url: String, kind: StreamKind, codec: String? = nil, bitrate: Int? = nil) {
        self.url = url; self.kind = kind; self.codec = codec; self.bitrate = bitrate
    }
}

/// A regular programme of a station.
public struct Programme: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String?
    /// Weekly broadcast times, in the station's time zone.
    public var slots: [BroadcastSlot]

    public init(id: String, name: String, description: String? = nil, slots: [BroadcastSlot]) {
        self.id = id; self.name = name; self.description = description; self.slots = slots
    }
}

public enum Weekday: String, Codable, Sendable, CaseIterable, Equatable {
    case mon, tue, wed, thu, fri, sat, sun

    public init(from decoder: Decoder) throws { self = try Self.decodeChoice(from: decoder) }
}

/// A weekly broadcast: on these days, from `start` (HH:MM local), for `duration`.
public struct BroadcastSlot: Codable, Sendable, Equatable {
    public var days: [Weekday]
    public var start: ClockTime
    public var duration: TimeSpan

    public init(days: [Weekday], start: ClockTime, duration: TimeSpan) {
        self.days = days; self.start = start; self.duration = duration
    }
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// Decodes one word of a closed set; the synthesized decoder's error would not name the choices.
    static func decodeChoice(from decoder: Decoder) throws -> Self {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let value = Self(rawValue: text) { return value }
        let choices = allCases.map { "\"\($0.rawValue)\"" }
        let expected = choices.count == 2 ? choices.joined(separator: " or ")
                                          : "one of " + choices.joined(separator: ", ")
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
            debugDescription: "expected \(expected), got \"\(text)\""))
    }
}

/// A programme id the station does not have.
public struct UnknownProgramme: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension Station {
    /// The programme with this id; the error names the ones it has.
    public func programme(id: String) throws(UnknownProgramme) -> Programme {
        guard let found = programmes.first(where: { $0.id == id }) else {
            let known = programmes.map(\.id).joined(separator: ", ")
            throw UnknownProgramme(description: "\(self.id) has no programme '\(id)'" + (known.isEmpty ? "" : " (it has: \(known))"))
        }
        return found
    }
}
