import Foundation
import RadioModel

/// A station as the radio-browser.info directory lists it.
public struct DirectoryStation: Sendable, Equatable, Codable {
    /// The directory's id for the station (`stationuuid`).
    public var uuid: String
    public var name: String
    /// The stream to play: the directory's resolved URL (playlists already followed) when it has one.
    public var streamURL: String
    public var kind: StreamKind
    /// Codec in onair's names: mp3, aac, he-aac, vorbis, opus, flac; nil when the directory does not know.
    public var codec: String?
    /// Nominal bitrate in kbit/s; nil when the directory does not know.
    public var bitrate: Int?
    public var homepage: String?
    /// The station's icon or logo, as the directory's `favicon` gives it (http or https only).
    public var favicon: String?
    /// ISO 3166-1 alpha-2, uppercase; nil when the directory does not know.
    public var countryCode: String?
    /// ISO 639 codes, most important first.
    public var languageCodes: [String]
    public var tags: [String]
    /// Whether the directory's most recent check of the stream succeeded.
    public var lastCheckOK: Bool

    public init(uuid: String, name: String, streamURL: String, kind: StreamKind, codec: String? = nil,
                bitrate: Int? = nil, homepage: String? = nil, favicon: String? = nil, countryCode: String? = nil,
                languageCodes: [String] = [], tags: [String] = [], lastCheckOK: Bool = true) {
        self.uuid = uuid; self.name = name; self.streamURL = streamURL; self.kind = kind; self.codec = codec
        self.bitrate = bitrate; self.homepage = homepage; self.favicon = favicon; self.countryCode = countryCode
        self.languageCodes = languageCodes; self.tags = tags; self.lastCheckOK = lastCheckOK
    }
}

/// Why a directory search gave no result list.
public struct DirectoryError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The configured server URLs are unusable.
        case configuration
        /// No server gave a usable answer: unreachable, failing, or answering garbage.
        case unavailable
    }

    public var kind: Kind
    public var message: String
    public var description: String { message }
}

/// Searches the radio-browser.info directory.
///
/// The directory is a set of equal mirrors published as the SRV record `_api._tcp.radio-browser.info`.
/// Its operators ask clients to pick one at random, so load spreads, and to say who they are in the
/// User-Agent. Any failure of one server (unreachable, 5xx, stalled, garbage) moves on to the next:
/// one mirror's trouble says nothing about the others.
///
/// Blocking: call it from a thread of its own or the main thread, never from Swift's cooperative pool.
public struct RadioBrowserClient: Sendable {
    public static let serviceName = "_api._tcp.radio-browser.info"
    /// Servers tried (in random order) when the SRV lookup fails.
    public static let fallbackBaseURLs = [
        "https://de1.api.radio-browser.info",
        "https://nl1.api.radio-browser.info",
        "https://at1.api.radio-browser.info",
    ]
    /// Comma-separated base URLs that replace discovery: for tests, and for users behind a proxy or offline.
    public static let baseURLsVariable = "ONAIR_RADIO_BROWSER_URL"
    /// Far above any real answer (about 1.5 kB per station), low enough that a hostile server cannot exhaust memory.
    static let maxResponseBytes = 16 << 20

    /// Servers fixed by the caller or the environment, asked in their order; nil to discover them.
    private let configuredBaseURLs: [String]?
    private let serviceLookup: DNSServiceLookup?
    public var engine: TransferEngine
    public var connectTimeout: Double = 5
    public var stallTimeout: Double = 10

    /// - Parameters:
    ///   - baseURLs: servers to ask, in this order, instead of discovering them.
    ///   - environment: where `ONAIR_RADIO_BROWSER_URL` is read when `baseURLs` is nil.
    ///   - serviceLookup: the SRV resolver for discovery; nil for the system's nameservers.
    /// - Throws: `DirectoryError` of kind `.configuration` when a base URL is not http(s).
    public init(baseURLs: [String]? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                serviceLookup: DNSServiceLookup? = nil,
                engine: TransferEngine = .shared) throws {
        if let baseURLs {
            configuredBaseURLs = try baseURLs.map { try Self.validatedBaseURL($0, source: "radio-browser server") }
        } else if let variable = environment[Self.baseURLsVariable], !variable.isEmpty {
            let servers = try variable.split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .map { try Self.validatedBaseURL($0, source: Self.baseURLsVariable) }
            guard !servers.isEmpty else {
                throw DirectoryError(kind: .configuration, message: "\(Self.baseURLsVariable) names no server")
            }
            configuredBaseURLs = servers
        } else {
            configuredBaseURLs = nil
        }
        self.serviceLookup = serviceLookup
        self.engine = engine
    }

    /// Stations whose name contains `query`, most listened to first, broken ones left out.
    public func search(_ query: String, limit: Int = 20) throws -> [DirectoryStation] {
        let (servers, discoveryFailure) = orderedServers()
        var failures = discoveryFailure.map { ["DNS: \($0)"] } ?? []
        for server in servers {
            let request = TransferRequest(url: Self.searchURL(base: server, query: query, limit: limit),
                                          headers: [(name: "Accept", value: "application/json")],
                                          connectTimeout: connectTimeout, stallTimeout: stallTimeout)
            do {
                let response = try engine.fetch(request, maxBytes: Self.maxResponseBytes)
                return try Self.decodeStations(response.body, server: server)
            } catch let error as TransferError {
                failures.append("\(server): \(error.message)")
            } catch {
                failures.append("\(error)")
            }
        }
        throw DirectoryError(kind: .unavailable, message: "radio-browser.info search failed: " + failures.joined(separator: "; "))
    }

    /// The servers to try, in order, and why discovery fell back to the built-in list, if it did.
    private func orderedServers() -> (servers: [String], discoveryFailure: String?) {
        if let configuredBaseURLs { return (configuredBaseURLs, nil) }
        do {
            let records = try (serviceLookup ?? .system()).serviceRecords(for: Self.serviceName)
            guard !records.isEmpty else { return (Self.fallbackBaseURLs.shuffled(), "no SRV record for \(Self.serviceName)") }
            return (Self.preferenceOrder(records).map(Self.baseURL(for:)), nil)
        } catch {
            return (Self.fallbackBaseURLs.shuffled(), "\(error)")
        }
    }

    /// RFC 2782 order: lowest priority first; within a priority, a random order in which a record's
    /// chance of coming first grows with its weight.
    static func preferenceOrder(_ records: [ServiceRecord]) -> [ServiceRecord] {
        Dictionary(grouping: records, by: \.priority).sorted { $0.key < $1.key }.flatMap { _, group in
            var remaining = group
            var ordered: [ServiceRecord] = []
            while !remaining.isEmpty {
                // The +1 leaves weight-0 records a small chance, as the RFC asks.
                var ticket = Int.random(in: 0..<remaining.reduce(0) { $0 + Int($1.weight) + 1 })
                let index = remaining.firstIndex { ticket -= Int($0.weight) + 1; return ticket < 0 } ?? 0
                ordered.append(remaining.remove(at: index))
            }
            return ordered
        }
    }

    /// The directory's API speaks https only, on the port the record names.
    static func baseURL(for record: ServiceRecord) -> String {
        record.port == 443 ? "https://\(record.target)" : "https://\(record.target):\(record.port)"
    }

    static func searchURL(base: String, query: String, limit: Int) -> String {
        "\(base)/json/stations/search?name=\(percentEncoded(query))&limit=\(limit)"
            + "&hidebroken=true&order=clickcount&reverse=true"
    }

    /// Everything but RFC 3986's unreserved characters is escaped: '+' and '&' have meanings in a query.
    private static func percentEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static func validatedBaseURL(_ text: String, source: String) throws -> String {
        let components = URLComponents(string: text)
        guard let scheme = components?.scheme?.lowercased(), scheme == "http" || scheme == "https",
              !(components?.host ?? "").isEmpty else {
            throw DirectoryError(kind: .configuration,
                                 message: "\(source): expected an http:// or https:// base URL, got \"\(text)\"")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}

// MARK: - The directory's JSON

extension RadioBrowserClient {
    /// The stations of a search answer. Entries without a name or a web stream URL are left out:
    /// they could be neither played nor added.
    static func decodeStations(_ body: Data, server: String) throws -> [DirectoryStation] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: body)
        } catch {
            throw DirectoryError(kind: .unavailable,
                                 message: "\(server) answered malformed JSON (\(describe(error as? DecodingError)))")
        }
        return entries.compactMap(\.station)
    }

    /// A decoding error in a few words, with where in the answer it happened.
    private static func describe(_ error: DecodingError?) -> String {
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let found) where found.codingPath.isEmpty: return "not JSON"
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
             .dataCorrupted(let found): context = found
        default: return "unreadable"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "expected an array of stations" : "at \(path): \(context.debugDescription)"
    }

    /// One element of the answer, as sent: the directory fills most fields with "" when it knows nothing.
    private struct Entry: Decodable {
        var stationuuid: String?
        var name: String?
        var url: String?
        var url_resolved: String?
        var homepage: String?
        var favicon: String?
        var countrycode: String?
        var languagecodes: String?
        var tags: String?
        var codec: String?
        var bitrate: Int?
        var hls: Int?
        var lastcheckok: Int?

        var station: DirectoryStation? {
            guard let uuid = stationuuid, !uuid.isEmpty,
                  let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
                  let streamURL = [url_resolved, url].lazy.compactMap({ $0 }).first(where: Self.isWebURL)
            else { return nil }
            let country = countrycode?.uppercased() ?? ""
            return DirectoryStation(
                uuid: uuid, name: name, streamURL: streamURL, kind: hls == 1 ? .hls : .icy,
                codec: RadioBrowserClient.onairCodec(codec),
                bitrate: bitrate.flatMap { $0 > 0 ? $0 : nil },
                homepage: homepage.flatMap { Self.isWebURL($0) ? $0 : nil },
                favicon: favicon.flatMap { Self.isWebURL($0) ? $0 : nil },
                countryCode: country.count == 2 && country.allSatisfy({ ("A"..."Z").contains($0) }) ? country : nil,
                languageCodes: Self.list(languagecodes).map { $0.lowercased() },
                tags: Self.list(tags),
                lastCheckOK: lastcheckok == 1)
        }

        /// A comma-separated field as its non-empty items.
        private static func list(_ field: String?) -> [String] {
            (field ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        /// Only the web: a directory anyone can edit must never point onair at a local file.
        private static func isWebURL(_ text: String) -> Bool {
            let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces))
            let scheme = components?.scheme?.lowercased()
            return (scheme == "http" || scheme == "https") && !(components?.host ?? "").isEmpty
        }
    }

    /// The directory's codec label in onair's names; nil for labels onair does not know ("UNKNOWN",
    /// video codecs): a wrong hint is worse than none, since the demuxer probes anyway.
    static func onairCodec(_ label: String?) -> String? {
        switch label?.trimmingCharacters(in: .whitespaces).uppercased() {
        case "MP3": return "mp3"
        case "AAC": return "aac"
        case "AAC+": return "he-aac"
        case "OGG", "VORBIS": return "vorbis"
        case "OPUS": return "opus"
        case "FLAC": return "flac"
        default: return nil
        }
    }
}

// MARK: - Adding to the catalogue

extension DirectoryStation {
    /// This station as a catalogue entry whose id is none of `takenIDs`.
    ///
    /// The id is the name as a slug ("Jazz Radio Berlin" → "jazz-radio-berlin"), with the start of the
    /// directory's uuid appended only on a collision, so ids stay short and typeable. Fields the
    /// directory leaves empty get "unknown" values: country "ZZ" (CLDR's unknown region), language
    /// "und" (ISO 639's undetermined); the time zone is UTC unless the country has only one.
    public func catalogueStation(avoiding takenIDs: Set<String>) -> Station {
        let slug = Slug.make(name)
        let base = slug.isEmpty ? "station" : slug
        let uuidPrefix = String(uuid.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(8))
        let id = takenIDs.contains(base) ? "\(base)-\(uuidPrefix)" : base
        let country = countryCode ?? "ZZ"
        let language = languageCodes.first { $0.count == 2 && $0.allSatisfy { ("a"..."z").contains($0) } } ?? "und"
        return Station(id: id, name: name, homepage: homepage, logo: favicon, country: country, language: language,
                       timeZone: Self.singleTimeZoneCountries[country] ?? "UTC", tags: tags,
                       streams: [StreamEndpoint(url: streamURL, kind: kind, codec: codec, bitrate: bitrate)])
    }

    /// Countries that keep one time zone throughout (ignoring small outlying islands), so a station's
    /// country says its zone. Larger countries (US, RU, BR, AU, …) are left to the user.
    static let singleTimeZoneCountries: [String: String] = [
        "AT": "Europe/Vienna", "BE": "Europe/Brussels", "BG": "Europe/Sofia", "CH": "Europe/Zurich",
        "CZ": "Europe/Prague", "DE": "Europe/Berlin", "DK": "Europe/Copenhagen", "EE": "Europe/Tallinn",
        "ES": "Europe/Madrid", "FI": "Europe/Helsinki", "FR": "Europe/Paris", "GB": "Europe/London",
        "GR": "Europe/Athens", "HR": "Europe/Zagreb", "HU": "Europe/Budapest", "IE": "Europe/Dublin",
        "IS": "Atlantic/Reykjavik", "IT": "Europe/Rome", "LT": "Europe/Vilnius", "LU": "Europe/Luxembourg",
        "LV": "Europe/Riga", "MT": "Europe/Malta", "NL": "Europe/Amsterdam", "NO": "Europe/Oslo",
        "PL": "Europe/Warsaw", "PT": "Europe/Lisbon", "RO": "Europe/Bucharest", "RS": "Europe/Belgrade",
        "SE": "Europe/Stockholm", "SI": "Europe/Ljubljana", "SK": "Europe/Bratislava", "TR": "Europe/Istanbul",
        "IL": "Asia/Jerusalem", "IN": "Asia/Kolkata", "JP": "Asia/Tokyo", "KR": "Asia/Seoul",
        "HK": "Asia/Hong_Kong", "SG": "Asia/Singapore", "TW": "Asia/Taipei", "PH": "Asia/Manila",
        "NZ": "Pacific/Auckland", "ZA": "Africa/Johannesburg",
    ]
}
