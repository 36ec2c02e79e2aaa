import APIContract
import Daemon
import Foundation
import Hummingbird
import Outputs
import Media
import RadioModel
import Recording

/// `/api/v1/recordings`: the finished recordings of the index — listed, shown with their chapters and
/// gaps, deleted (file and entry), kept from retention or let go, and their audio served with ranges
/// (players seek, podcast apps resume).
/// URLs carry ids, never paths: only files the index lists are ever read.
extension API {
    var recordingRoutes: [APIRoute] {
        [
            APIRoute(.get, "/api/v1/recordings") { request, _ in
                let station = request.uri.queryParameters.get("station")
                let programme = request.uri.queryParameters.get("programme")
                let limit = try boundedCount(request, "limit", default: 100)
                let offset = try request.uri.queryParameters.get("offset").map { text -> Int in
                    guard let offset = Int(text), offset >= 0 else { throw APIError.badRequest("offset must be a number from 0") }
                    return offset
                } ?? 0
                return try await perform { daemon in
                    // The revision first: the page read after it is at least as new, so never older than its key.
                    let revision = try stored { () throws(RecordingError) in try daemon.recordings.revision() }
                    let question: [String?] = [station, programme, String(limit), String(offset)]
                    return JSONResponse.make(encoded: try recordingPages.answer(question, at: revision) {
                        let (total, page) = try stored { () throws(RecordingError) in
                            try daemon.recordings.page(station: station, programme: programme, limit: limit, offset: offset)
                        }
                        return ByteBuffer(bytes: OnairJSON.data(RecordingList(total: total, recordings: page.map(Components.Schemas.RecordingSummary.init))))
                    })
                }
            },
            APIRoute(.get, "/api/v1/recordings/{id}/audio") { request, context in
                let id = try context.id()
                let headers = request.headers
                // The file is found and its size read inside `perform`; its bytes stream outside it.
                let answer = try await perform { daemon in
                    try RecordingFile.answer(to: headers, file: try Self.recording(id, daemon).file, within: daemon.paths.recordings)
                }
                return try await RecordingFile.response(answer, context: context)
            },
        ]
    }

    func getRecording(_ input: Operations.GetRecording.Input) async throws -> Operations.GetRecording.Output {
        let id = input.path.id
        return try await perform { daemon in
            let entry = try Self.recording(id, daemon)
            let detail = Components.Schemas.RecordingDetail(
                recording: .init(entry.listing), file: URL(fileURLWithPath: entry.file).lastPathComponent,
                titles: try GeneratedGlue.contract(entry.titles), gaps: try GeneratedGlue.contract(entry.gaps),
                chapters: try GeneratedGlue.contract(Self.chapters(of: entry)))
            return .ok(.init(body: .json(detail)))
        }
    }

    func deleteRecording(_ input: Operations.DeleteRecording.Input) async throws -> Operations.DeleteRecording.Output {
        let id = input.path.id
        return try await perform { daemon in .ok(.init(body: .json(try Self.delete(try Self.recording(id, daemon), daemon)))) }
    }

    func keepRecording(_ input: Operations.KeepRecording.Input) async throws -> Operations.KeepRecording.Output {
        .ok(.init(body: .json(try await setKept(input.path.id, true))))
    }

    func unkeepRecording(_ input: Operations.UnkeepRecording.Input) async throws -> Operations.UnkeepRecording.Output {
        .ok(.init(body: .json(try await setKept(input.path.id, false))))
    }

    /// Podcasting 2.0's JSON chapters (`application/json+chapters`) of a recording: its chapters, to the millisecond.
    func recordingChapters(_ input: Operations.RecordingChapters.Input) async throws -> Operations.RecordingChapters.Output {
        let id = input.path.id
        return try await perform { daemon in
            let chapters = Self.chapters(of: try Self.recording(id, daemon)).map {
                Components.Schemas.PodcastChapters.ChaptersPayloadPayload(startTime: ($0.start * 1000).rounded() / 1000, title: $0.title)
            }
            return .ok(.init(body: .json(.init(version: "1.2.0", chapters: chapters))))
        }
    }

    /// Deletes the recording's files (only inside the recordings folder), then its index entry.
    private static func delete(_ entry: IndexedRecording, _ daemon: BlockingDaemon) throws -> Components.Schemas.RecordingSummary {
        do {
            try entry.deleteFiles(inside: daemon.paths.recordings)
        } catch {
            throw APIError(.conflict, error.description)
        }
        _ = try stored { () throws(RecordingError) in try daemon.recordings.remove(id: entry.id ?? 0) }
        return .init(entry.listing)
    }

    /// Marks the recording kept (retention never deletes it) or lets retention have it again.
    private func setKept(_ id: Int64, _ kept: Bool) async throws -> Components.Schemas.RecordingSummary {
        try await perform { daemon in
            guard let entry = try stored({ () throws(RecordingError) in try daemon.recordings.setKept(id: id, kept) }) else {
                throw APIError.notFound("no recording \(id)")
            }
            return .init(entry.listing)
        }
    }

    static func recording(_ id: Int64, _ daemon: BlockingDaemon) throws -> IndexedRecording {
        guard let entry = try stored({ () throws(RecordingError) in try daemon.recordings.recording(id: id) }) else {
            throw APIError.notFound("no recording \(id)")
        }
        return entry
    }

    /// What a player jumps to: one chapter per title on air, one per known clip heard, and one where the audio resumes after a gap.
    private static func chapters(of entry: IndexedRecording) -> [Chapter] {
        ChapterList.chapters(titles: entry.titles, gaps: entry.gaps, clips: entry.clips ?? [], duration: entry.duration,
                             untitled: entry.programmeName ?? entry.stationName)
    }
}

/// The list as the contract writes it; its route encodes it by hand (the same JSON as the generated glue would send).
typealias RecordingList = Components.Schemas.RecordingList

extension Components.Schemas.RecordingSummary {
    /// A recording in a list: what a person picks it by, and where its audio is.
    init(_ entry: RecordingListing) {
        self.init(id: Int(entry.id), station: entry.station, stationName: entry.stationName, programme: entry.programme,
                  programmeName: entry.programmeName, episodeTitle: entry.episodeTitle, start: entry.startUTC, end: entry.endUTC,
                  duration: entry.duration, size: Int(entry.size), codec: entry.codec, container: entry.container, gaps: entry.gapCount,
                  kept: entry.kept, audio: "/api/v1/recordings/\(entry.id)/audio")
    }
}
