import Foundation

/// Every station onair knows: the catalogue shipped with it, overlaid with the user's own.
///
/// File format and override rules: docs/catalogue-schema.md.
public struct Catalogue: Sendable {
    /// All stations, sorted by name (case and accents ignored), then id.
    public let stations: [Station]
    private let stationsByID: [String: Station]

    /// A catalogue of `stations`. Where two share an id the later one wins: that is how a user's
    /// station replaces a shipped one.
    public init(stations: [Station]) {
        let byID = Dictionary(stations.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        stationsByID = byID
        self.stations = byID.values
            .map { (key: Catalogue.fold($0.name), station: $0) }
            .sorted { ($0.key, $0.station.id) < ($1.key, $1.station.id) }
            .map(\.station)
    }

    /// Loads the shipped catalogue (if any) and the user's (if the file exists); user stations
    /// override shipped ones with the same id and add to them otherwise.
    public static func load(shippedURL: URL?, userURL: URL) throws(CatalogueError) -> Catalogue {
        let shipped = try shippedURL.map(stations(inFileAt:)) ?? []
        let user = FileManager.default.fileExists(atPath: userURL.path) ? try stations(inFileAt: userURL) : []
        return Catalogue(stations: shipped + user)
    }

    /// The stations of one catalogue file, decoded and validated.
    public static func stations(inFileAt url: URL) throws(CatalogueError) -> [Station] {
        try CatalogueFile.read(url).stations
    }

    /// The stations of catalogue text; `path` names it in errors.
    public static func stations(decoding data: Data, path: String) throws(CatalogueError) -> [Station] {
        try CatalogueFile.decode(data, path: path).stations
    }

    public func station(id: String) -> Station? { stationsByID[id] }

    /// Stations matching every whitespace-separated word of `query` (case and accents ignored) in
    /// their name, id or tags, or as their country or language code. Best first: an exact id or
    /// name, then names starting with the query, then the rest; by name within each group.
    /// An empty query matches everything.
    public func search(_ query: String) -> [Station] {
        let words = Catalogue.fold(query).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return stations }
        let wholeQuery = words.joined(separator: " ")
        let ranked = stations.enumerated().compactMap { position, station -> (rank: Int, position: Int, station: Station)? in
            let name = Catalogue.fold(station.name)
            let texts = [name, station.id] + station.tags.map(Catalogue.fold)
            let codes = [Catalogue.fold(station.country), Catalogue.fold(station.language)]
            let matches = words.allSatisfy { word in codes.contains(word) || texts.contains { $0.contains(word) } }
            guard matches else { return nil }
            let rank = (station.id == wholeQuery || name == wholeQuery) ? 0 : name.hasPrefix(wholeQuery) ? 1 : 2
            return (rank, position, station)
        }
        return ranked.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.station)
    }

    /// Text as search and sorting compare it: "Radio Clásica" and "radio clasica" are the same.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

extension Catalogue {
    /// The shipped stations.json: `$ONAIR_STATIONS` if set; else the first found next to the
    /// executable or in a directory above it (so a build under `.build/` finds the repository's
    /// file), in `<prefix>/share/onair/` beside the executable's `bin/`, then in
    /// /usr/share/onair and /usr/local/share/onair. Nil when there is none.
    public static func shippedCatalogueURL(executableURL: URL?, environment: [String: String]) -> URL? {
        if let override = environment["ONAIR_STATIONS"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var candidates: [URL] = []
        if let executableURL {
            let binDirectory = executableURL.resolvingSymlinksInPath().deletingLastPathComponent()
            let components = binDirectory.pathComponents
            for count in stride(from: components.count, to: 0, by: -1) {
                let directory = NSString.path(withComponents: Array(components[..<count]))
                candidates.append(URL(fileURLWithPath: directory).appendingPathComponent("stations.json"))
            }
            candidates.append(binDirectory.deletingLastPathComponent()
                .appendingPathComponent("share/onair/stations.json"))
        }
        candidates += ["/usr/share/onair/stations.json", "/usr/local/share/onair/stations.json"]
            .map { URL(fileURLWithPath: $0) }
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
