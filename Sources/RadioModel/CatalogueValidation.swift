import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rule a decoded catalogue breaks, and where.
struct CatalogueProblem: Error {
    var path: JSONPath
    var message: String
}

/// The catalogue file as written on disk.
struct CatalogueDocument: Codable {
    /// The only format version this build reads and writes.
    static let currentVersion = 1

    var version: Int
    var stations: [Station]
}

/// Rules a catalogue must follow beyond its JSON shape, checked once after decoding so that
/// everything downstream (scheduling, the resolver, file names) can rely on them.
enum CatalogueValidator {
    static func validate(_ document: CatalogueDocument) throws(CatalogueProblem) {
        guard document.version == CatalogueDocument.currentVersion else {
            throw CatalogueProblem(path: JSONPath([.key("version")]),
                message: "unsupported version \(document.version) (this onair reads version \(CatalogueDocument.currentVersion))")
        }
        let stationsPath = JSONPath([.key("stations")])
        var firstIndexOfID: [String: Int] = [:]
        for (index, station) in document.stations.enumerated() {
            let path = stationsPath.appending(index)
            try validate(station, at: path)
            if let first = firstIndexOfID[station.id] {
                throw CatalogueProblem(path: path.appending("id"),
                    message: "duplicate station id \"\(station.id)\" (already used by stations[\(first)])")
            }
            firstIndexOfID[station.id] = index
        }
    }

    /// Checks one station as if it stood at `path` in a file.
    static func validate(_ station: Station, at path: JSONPath) throws(CatalogueProblem) {
        try validateIdentifier(station.id, kind: "station", at: path.appending("id"))
        try require(!station.name.trimmingCharacters(in: .whitespaces).isEmpty, path.appending("name"),
                    "a station needs a name")
        if let homepage = station.homepage {
            try validateWebURL(homepage, at: path.appending("homepage"))
        }
        if let logo = station.logo {
            try validateWebURL(logo, at: path.appending("logo"))
        }
        try require(station.country.count == 2 && station.country.allSatisfy { $0.isASCII && $0.isUppercase },
                    path.appending("country"),
                    "expected a two-letter ISO 3166 country code like \"GB\", got \"\(station.country)\"")
        // "und" (ISO 639-2 "undetermined") is what a directory entry without a language gets.
        try require(station.language == "und"
                        || (station.language.count == 2 && station.language.allSatisfy { $0.isASCII && $0.isLowercase }),
                    path.appending("language"),
                    "expected a two-letter ISO 639-1 language code like \"en\" (or \"und\"), got \"\(station.language)\"")
        try require(TimeZone(identifier: station.timeZone) != nil, path.appending("timeZone"),
                    "unknown time zone \"\(station.timeZone)\" (expected an IANA name like \"Europe/London\")")
        if let charset = station.charset {
            try require(iconvKnows(charset), path.appending("charset"),
                        "unknown charset \"\(charset)\" (expected a name iconv knows, like \"windows-1251\")")
        }
        if let preRoll = station.preRoll {
            try require(preRoll > 0 && preRoll <= 600, path.appending("preRoll"),
                        "expected the pre-roll's length in seconds, above 0 and at most 600, got \(preRoll)")
        }
        if let guideID = station.guideID {
            try require(!guideID.trimmingCharacters(in: .whitespaces).isEmpty, path.appending("guideID"),
                        "expected a guide's channel id, got an empty string")
        }
        try require(!station.streams.isEmpty, path.appending("streams"), "a station needs at least one stream")
        for (index, stream) in station.streams.enumerated() {
            let streamPath = path.appending("streams").appending(index)
            try validateWebURL(stream.url, at: streamPath.appending("url"))
            if let bitrate = stream.bitrate {
                try require(bitrate > 0, streamPath.appending("bitrate"),
                            "expected a bitrate in kbit/s above zero, got \(bitrate)")
            }
        }
        var firstIndexOfProgramme: [String: Int] = [:]
        for (index, programme) in station.programmes.enumerated() {
            let programmePath = path.appending("programmes").appending(index)
            try validate(programme, at: programmePath)
            if let first = firstIndexOfProgramme[programme.id] {
                throw CatalogueProblem(path: programmePath.appending("id"),
                    message: "duplicate programme id \"\(programme.id)\" (already used by programmes[\(first)] of this station)")
            }
            firstIndexOfProgramme[programme.id] = index
        }
    }

    private static func validate(_ programme: Programme, at path: JSONPath) throws(CatalogueProblem) {
        try validateIdentifier(programme.id, kind: "programme", at: path.appending("id"))
        try require(!programme.name.trimmingCharacters(in: .whitespaces).isEmpty, path.appending("name"),
                    "a programme needs a name")
        for (index, slot) in programme.slots.enumerated() {
            let slotPath = path.appending("slots").appending(index)
            try require(!slot.days.isEmpty, slotPath.appending("days"), "a slot needs at least one day")
            try require(slot.duration.seconds > 0, slotPath.appending("duration"), "a slot's duration must be above zero")
        }
    }

    private static let identifierCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")

    /// Ids appear on command lines and in file names, hence the narrow alphabet.
    private static func validateIdentifier(_ id: String, kind: String, at path: JSONPath) throws(CatalogueProblem) {
        try require(!id.isEmpty, path, "a \(kind) needs a non-empty id")
        try require(id.allSatisfy(identifierCharacters.contains), path,
                    "\(kind) id \"\(id)\" may only contain a-z, 0-9, '-', '_' and '.'")
    }

    /// Only the web: a catalogue (maybe shared, maybe downloaded) must never point onair at local files.
    private static func validateWebURL(_ text: String, at path: JSONPath) throws(CatalogueProblem) {
        let components = URLComponents(string: text)
        let scheme = components?.scheme?.lowercased()
        try require((scheme == "http" || scheme == "https") && !(components?.host ?? "").isEmpty, path,
                    "expected an http:// or https:// URL, got \"\(text)\"")
    }

    private static func require(_ condition: Bool, _ path: JSONPath, _ message: @autoclosure () -> String)
        throws(CatalogueProblem) {
        if !condition { throw CatalogueProblem(path: path, message: message()) }
    }

    /// Whether iconv can convert from `charset`, which is what the ICY title decoder will ask of it.
    static func iconvKnows(_ charset: String) -> Bool {
        guard let descriptor = iconv_open("UTF-8", charset), descriptor != iconv_t(bitPattern: -1) else { return false }
        iconv_close(descriptor)
        return true
    }
}
