import Daemon
import Foundation
import Hummingbird
import RadioModel
import StreamInput

/// `/api/v1/directory`: the radio-browser.info directory searched, and a result added to the user's
/// catalogue as a station (as `onair search --add` does).
extension API {
    var directoryRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/directory") { request, _ in
                let query = request.uri.queryParameters.get("q") ?? ""
                guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw APIError.badRequest("q must name what to search for")
                }
                let limit = try boundedCount(request, "limit", default: 20)
                return try await perform { daemon in
                    let directory = try Self.directory(daemon)
                    do {
                        return JSONResponse.make(DirectoryList(stations: try directory.search(query, limit: limit)))
                    } catch {
                        throw APIError(.badGateway, "\(error)")
                    }
                }
            },
            APIRoute(.post, "/api/v1/directory/add") { request, _ in
                let found = try await request.decodeJSON(DirectoryStation.self)
                return try await perform { daemon in
                    let station = found.catalogueStation(avoiding: Set(try daemon.loadCatalogue().stations.map(\.id)))
                    do {
                        try UserCatalogue(paths: daemon.paths).add(station)
                    } catch {
                        throw APIError.invalid("\(error)")
                    }
                    return JSONResponse.make(station, status: .created)
                }
            },
        ]
    }

    private static func directory(_ daemon: BlockingDaemon) throws -> RadioBrowserClient {
        guard let directory = daemon.directory() else {
            throw APIError(.serviceUnavailable, "no radio-browser.info server is configured (\(RadioBrowserClient.baseURLsVariable))")
        }
        return directory
    }
}

struct DirectoryList: Encodable {
    let stations: [DirectoryStation]
}
