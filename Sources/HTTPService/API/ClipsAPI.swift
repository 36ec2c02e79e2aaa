import APIContract
import ClipDetection
import Daemon
import Foundation
import RadioModel

/// `/api/v1/clips` and `/api/v1/airings`: the known clips the daemon listens for on every station it connects, one
/// cut from a recording (a request names a recording, never a file), and the airings heard, as `onair aired` tells them.
extension API {
    func listClips(_ input: Operations.ListClips.Input) async throws -> Operations.ListClips.Output {
        try await perform { daemon in
            let clips = try stored { () throws(ClipError) in try daemon.clips().library.all() }
            return .ok(.init(body: .json(.init(clips: clips.map(Components.Schemas.Clip.init)))))
        }
    }

    func addClip(_ input: Operations.AddClip.Input) async throws -> Operations.AddClip.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "the body must be JSON") }
        let name: String
        do throws(ClipError) { name = try ReferenceClip.checkedName(body.name) } catch { throw APIError.invalid(error.description) }
        let kind = ReferenceClip.Kind(rawValue: body.kind?.rawValue ?? "song") ?? .song
        // The generated glue checks types, not ranges.
        guard body.start >= 0, body.start <= 366 * 86400 else { throw APIError.invalid("start is 0 or more seconds into the recording") }
        guard body.length >= Double(ClipFile.shortest), body.length <= Double(ClipFile.longest) else {
            throw APIError.invalid("length is \(ClipFile.shortest) to \(ClipFile.longest) seconds")
        }
        return try await perform { daemon in
            let recording = try Self.recording(body.recording, daemon)
            let stores = try stored { () throws(ClipError) in try daemon.clips() }
            let cut: (seconds: Double, fingerprint: Fingerprint)
            do throws(ClipError) {
                cut = try ClipFile.fingerprint(recording.file, start: body.start, length: body.length)
            } catch {
                // Told by the recording, not by where its file is on the box (FFmpeg's words may name the file again).
                throw APIError.invalid("recording \(body.recording)"
                                       + error.description.dropFirst(recording.file.count).replacingOccurrences(of: recording.file, with: "its file"))
            }
            let clip: ReferenceClip
            do throws(ClipError) {
                clip = try stores.library.add(name: name, kind: kind, seconds: cut.seconds, fingerprint: cut.fingerprint)
            } catch where error.reason == .nameTaken {
                throw APIError(.conflict, error.description)
            } catch {
                throw APIError(.serviceUnavailable, error.description)
            }
            daemon.clipsChanged()
            return .created(.init(body: .json(.init(clip))))
        }
    }

    func removeClip(_ input: Operations.RemoveClip.Input) async throws -> Operations.RemoveClip.Output {
        let id = input.path.id
        return try await perform { daemon in
            guard let clip = try stored({ () throws(ClipError) in try daemon.clips().library.remove(id: id) }) else {
                throw APIError.notFound("no clip \(id)")
            }
            daemon.clipsChanged()
            return .ok(.init(body: .json(.init(clip))))
        }
    }

    func listAirings(_ input: Operations.ListAirings.Input) async throws -> Operations.ListAirings.Output {
        let query = input.query
        // The generated glue checks types, not ranges.
        let limit = query.limit ?? 1000
        guard (1...10000).contains(limit) else { throw APIError.badRequest("limit is 1 to 10000") }
        return try await perform { daemon in
            let airings = try stored { () throws(ClipError) in
                try daemon.clips().airings.airings(clip: query.clip, kind: query.kind?.rawValue, station: query.station, since: query.since,
                                                   until: nil, limit: limit)
            }
            let rows = AiredRow.rows(airings, catalogue: try? daemon.loadCatalogue())
            return .ok(.init(body: .json(.init(airings: rows.map(Components.Schemas.Airing.init)))))
        }
    }
}

extension Components.Schemas.Clip {
    init(_ clip: ReferenceClip) {
        self.init(id: clip.id, name: clip.name, kind: .init(rawValue: clip.kind.rawValue) ?? .song, seconds: clip.seconds, learned: clip.learned)
    }
}

extension Components.Schemas.Airing {
    init(_ row: AiredRow) {
        self.init(clip: row.clip, kind: row.kind, station: row.station, start: row.startInstant, end: row.endInstant,
                  stationTime: row.stationTime, timeZone: row.timeZone,
                  seconds: row.seconds, offset: row.offset, partial: row.partial, score: row.score)
    }
}
