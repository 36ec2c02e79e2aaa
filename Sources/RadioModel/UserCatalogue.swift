import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's own stations.json, which onair writes when asked to remember a station
/// (`onair search --add`). Its stations override shipped ones with the same id.
public struct UserCatalogue: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    public init(paths: AppPaths) { self.init(url: paths.userCatalogueURL) }

    /// The stations in the file; none while it does not exist.
    public func stations() throws(CatalogueError) -> [Station] {
        FileManager.default.fileExists(atPath: url.path) ? try Catalogue.stations(inFileAt: url) : []
    }

    /// Adds `station`, or replaces the one with its id, keeping every other station as it was.
    /// The file is replaced atomically, so a crash or a full disk never leaves half a catalogue.
    public func add(_ station: Station) throws(CatalogueError) {
        try add([station])
    }

    /// Adds `newStations` (each replacing the one with its id) in one rewrite of the file: all of them or,
    /// when one is invalid, none (`onair stations import`).
    public func add(_ newStations: [Station]) throws(CatalogueError) {
        var stations = try stations()
        for station in newStations {
            let index = stations.firstIndex { $0.id == station.id } ?? stations.endIndex
            do {
                try CatalogueValidator.validate(station, at: JSONPath([.key("stations"), .index(index)]))
            } catch {
                throw CatalogueError(path: url.path, field: error.path.description,
                                     message: error.message + " (station \"\(station.id)\" not added)")
            }
            if index == stations.endIndex { stations.append(station) } else { stations[index] = station }
        }
        try write(CatalogueDocument(version: CatalogueDocument.currentVersion, stations: stations))
    }

    private func write(_ document: CatalogueDocument) throws(CatalogueError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let directory = url.deletingLastPathComponent()
        // Same directory as the target, so the rename cannot cross file systems.
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            var data = try encoder.encode(document)
            data.append(UInt8(ascii: "\n"))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CatalogueError(path: url.path, message: "cannot write the file: \(CatalogueFile.reason(for: error))")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CatalogueError(path: url.path, message: "cannot replace the file: \(reason)")
        }
    }
}
