import APIContract
import Daemon
import Foundation
import RadioModel
import StreamInput

/// `/api/v1/directory`: the radio-browser.info directory searched, and a result added to the user's
/// catalogue as a station (as `onair search --add` does).
extension API {
    func searchDirectory(_ input: Operations.SearchDirectory.Input) async throws -> Operations.SearchDirectory.Output {
        let query = input.query.q
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badRequest("q must name what to search for")
        }
        let limit = try boundedCount(input.query.limit, "limit", default: 20)
        return try await perform { daemon in
            let directory = try Self.directory(daemon)
            let found: [DirectoryStation]
            do {
                found = try directory.search(query, limit: limit)
            } catch {
                throw APIError(.badGateway, "\(error)")
            }
            return .ok(.init(body: .json(.init(stations: try found.map { try GeneratedGlue.contract($0) }))))
        }
    }

    func addDirectoryStation(_ input: Operations.AddDirectoryStation.Input) async throws -> Operations.AddDirectoryStation.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let found = try GeneratedGlue.domain(body, as: DirectoryStation.self)
        return try await perform { daemon in
            let station = found.catalogueStation(avoiding: Set(try daemon.loadCatalogue().stations.map(\.id)))
            do {
                try UserCatalogue(paths: daemon.paths).add(station)
            } catch {
                throw APIError.invalid("\(error)")
            }
            return .created(.init(body: .json(try GeneratedGlue.contract(station))))
        }
    }

    private static func directory(_ daemon: BlockingDaemon) throws -> RadioBrowserClient {
        guard let directory = daemon.directory() else {
            throw APIError(.serviceUnavailable, "no radio-browser.info server is configured (\(RadioBrowserClient.baseURLsVariable))")
        }
        return directory
    }
}
