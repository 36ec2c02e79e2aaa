import Foundation
import RadioModel

/// stations.json, the shipped catalogue and the user's own: any bytes give stations or one error
/// naming the file, never a crash.
func fuzzCatalogue(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let stations = try Catalogue.stations(decoding: Data(bytes: data, count: size), path: "stations.json")
        _ = Catalogue(stations: stations)
    } catch {
        precondition(error.description.hasPrefix("stations.json"), "an error that does not name the file: \(error)")
    }
    return 0
}
