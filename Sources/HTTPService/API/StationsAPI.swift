import APIContract
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
                    // An unchanged catalogue is `CatalogueReader`'s same array, which compares equal at once
                    // (arrays sharing storage); a changed one compares unequal and its answers are encoded afresh.
                    let catalogue = try daemon.loadCatalogue()
                    return JSONResponse.make(encoded: try stationAnswers.answer(query, at: catalogue.stations) {
                        ByteBuffer(bytes: OnairJSON.data(try StationList(query.isEmpty ? catalogue.stations : catalogue.search(query))))
                    })
                }
            },
        ]
    }

    func addStation(_ input: Operations.AddStation.Input) async throws -> Operations.AddStation.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let station = try GeneratedGlue.domain(body, as: Station.self)
        return try await perform { daemon in
            guard try daemon.loadCatalogue().station(id: station.id) == nil else {
                throw APIError(.conflict, "a station with id \"\(station.id)\" is already in the catalogue")
            }
            do {
                try UserCatalogue(paths: daemon.paths).add(station)
            } catch {
                throw APIError.invalid("\(error)")
            }
            return .created(.init(body: .json(try GeneratedGlue.contract(station))))
        }
    }

    func getStation(_ input: Operations.GetStation.Input) async throws -> Operations.GetStation.Output {
        let id = input.path.id
        return try await perform { daemon in
            guard let station = try daemon.loadCatalogue().station(id: id) else {
                throw APIError.notFound("no station \"\(UntrustedText.printable(id, maxLength: 80))\" in the catalogue")
            }
            return .ok(.init(body: .json(try GeneratedGlue.contract(station))))
        }
    }
}

/// The list as the contract writes it (the same JSON as the generated glue would send).
typealias StationList = Components.Schemas.StationList

extension StationList {
    init(_ stations: [Station]) throws {
        self.init(stations: try stations.map { try GeneratedGlue.contract($0) })
    }
}
