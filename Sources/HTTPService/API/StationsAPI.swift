import Engine
import Foundation
import Hummingbird
import RadioModel

/// `/api/v1/stations`: the catalogue (the shipped stations and the user's own), searched, and stations
/// added to the user's catalogue.
extension API {
    var stationRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/stations") { request, _ in
                let query = request.uri.queryParameters["q"].map(String.init) ?? ""
                return try await perform { daemon in
                    JSONResponse.make(StationList(stations: try daemon.loadCatalogue().search(query)))
                }
            },
            APIRoute(.post, "/api/v1/stations") { request, _ in
                let station = try await request.decodeJSON(Station.self)
                return try await perform { daemon in
                    guard try daemon.loadCatalogue().station(id: station.id) == nil else {
                        throw APIError(.conflict, "a station with id \"\(station.id)\" is already in the catalogue")
                    }
                    do {
                        try UserCatalogue(paths: daemon.paths).add(station)
                    } catch {
                        throw APIError.invalid("\(error)")
                    }
                    return JSONResponse.make(station, status: .created)
                }
            },
            APIRoute(.get, "/api/v1/stations/{id}") { _, context in
                let id = context.parameters.get("id") ?? ""
                return try await perform { daemon in
                    guard let station = try daemon.loadCatalogue().station(id: id) else {
                        throw APIError.notFound("no station \"\(id)\" in the catalogue")
                    }
                    return JSONResponse.make(station)
                }
            },
        ]
    }
}

struct StationList: Encodable {
    let stations: [Station]
}
