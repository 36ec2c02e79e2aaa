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
                    let catalogue = try daemon.loadCatalogue()
                    guard query.isEmpty else { return JSONResponse.make(StationList(stations: catalogue.search(query))) }
                    return JSONResponse.make(encoded: encodedStations.body(for: catalogue.stations))
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

/// The whole station list, encoded once per catalogue: encoding its JSON was most of what the route cost
/// (BENCHMARKS.md, api-latency), and the catalogue changes only when one of its files does. Told apart by
/// the stations themselves: an unchanged catalogue is `CatalogueReader`'s same array, which compares equal
/// at once (arrays sharing storage); a changed one compares unequal and is encoded afresh.
final class EncodedStationList: Sendable {
    private let last = Locked<(stations: [Station], body: ByteBuffer)?>(nil)

    func body(for stations: [Station]) -> ByteBuffer {
        if let last = last.current, last.stations == stations { return last.body }
        let body = ByteBuffer(bytes: OnairJSON.data(StationList(stations: stations)))
        last.withLock { $0 = (stations, body) }
        return body
    }
}
