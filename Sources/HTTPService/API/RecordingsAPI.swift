import Daemon
import Foundation
import HTTPServing
import Hummingbird
import Outputs
import Media
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
                    let (total, page) = try stored { () throws(RecordingError) in
                        try daemon.recordings.page(station: station, programme: programme, limit: limit, offset: offset)
                    }
                    return JSONResponse.make(RecordingList(total: total, recordings: page.map(RecordingSummary.init)))
                }
            },
            APIRoute(.get, "/api/v1/recordings/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in JSONResponse.make(RecordingDetail(try Self.recording(id, daemon))) }
            },
            APIRoute(.delete, "/api/v1/recordings/{id}") { _, context in
                let id = try context.id()
                return try await perform { daemon in try Self.delete(try Self.recording(id, daemon), daemon) }
            },
            APIRoute(.post, "/api/v1/recordings/{id}/keep") { _, context in try await setKept(context, true) },
            APIRoute(.delete, "/api/v1/recordings/{id}/keep") { _, context in try await setKept(context, false) },
            APIRoute(.get, "/api/v1/recordings/{id}/audio") { request, context in
                let id = try context.id()
                let headers = request.headers
                // The file is found and its size read inside `perform`; its bytes stream outside it.
                let answer = try await perform { daemon in
                    try RecordingFile.answer(to: headers, file: try Self.recording(id, daemon).file, within: daemon.paths.recordings)
                }
                return try await RecordingFile.response(answer, context: context)
            },
            APIRoute(.get, "/api/v1/recordings/{id}/chapters.json") { _, context in
                let id = try context.id()
                return try await perform { daemon in JSONResponse.make(PodcastChapters(try Self.recording(id, daemon))) }
            },
        ]
    }

    /// Deletes the recording's files (only inside the recordings folder), then its index entry.
    private static func delete(_ entry: IndexedRecording, _ daemon: BlockingDaemon) throws -> Response {
        do {
            try entry.deleteFiles(inside: daemon.paths.recordings)
        } catch {
            throw APIError(.conflict, error.description)
        }
        _ = try stored { () throws(RecordingError) in try daemon.recordings.remove(id: entry.id ?? 0) }
        return JSONResponse.make(RecordingSummary(entry.listing))
    }

    /// Marks the recording kept (retention never deletes it) or lets retention have it again.
    private func setKept(_ context: ClientRequestContext, _ kept: Bool) async throws -> Response {
        let id = try context.id()
        return try await perform { daemon in
            guard let entry = try stored({ () throws(RecordingError) in try daemon.recordings.setKept(id: id, kept) }) else {
                throw APIError.notFound("no recording \(id)")
            }
            return JSONResponse.make(RecordingSummary(entry.listing))
        }
    }

    private static func recording(_ id: Int64, _ daemon: BlockingDaemon) throws -> IndexedRecording {
        guard let entry = try stored({ () throws(RecordingError) in try daemon.recordings.recording(id: id) }) else {
            throw APIError.notFound("no recording \(id)")
        }
        return entry
    }
}

/// A recording in a list: what a person picks it by.
struct RecordingSummary: Encodable {
    let id: Int64
    let station: String
    let stationName: String
    let programme: String?
    let programmeName: String?
    let episodeTitle: String?
    let start: Date
    let end: Date
    let duration: Double
    let size: Int64
    let codec: String
    let container: String
    let gaps: Int
    /// Retention never deletes a kept recording.
    let kept: Bool
    let audio: String

    init(_ entry: RecordingListing) {
        id = entry.id; station = entry.station; stationName = entry.stationName; programme = entry.programme
        programmeName = entry.programmeName; episodeTitle = entry.episodeTitle; start = entry.startUTC; end = entry.endUTC
        duration = entry.duration; size = entry.size; codec = entry.codec; container = entry.container; gaps = entry.gapCount
        kept = entry.kept
        audio = "/api/v1/recordings/\(id)/audio"
    }
}

/// One recording with its titles, gaps and chapters (what a player jumps to).
struct RecordingDetail: Encodable {
    let recording: RecordingSummary
    let file: String
    let titles: [TimedTitle]
    let gaps: [TimedGap]
    let chapters: [Chapter]

    init(_ entry: IndexedRecording) {
        recording = RecordingSummary(entry.listing)
        file = URL(fileURLWithPath: entry.file).lastPathComponent
        titles = entry.titles
        gaps = entry.gaps
        chapters = ChapterList.chapters(titles: entry.titles, gaps: entry.gaps, duration: entry.duration,
                                        untitled: entry.programmeName ?? entry.stationName)
    }
}

struct RecordingList: Encodable {
    /// How many match, beyond this page.
    let total: Int
    let recordings: [RecordingSummary]
}

/// Podcasting 2.0's JSON chapters (`application/json+chapters`) of a recording.
struct PodcastChapters: Encodable {
    struct Entry: Encodable {
        let startTime: Double
        let title: String
    }

    let version = "1.2.0"
    let chapters: [Entry]

    init(_ entry: IndexedRecording) {
        chapters = RecordingDetail(entry).chapters.map { Entry(startTime: ($0.start * 1000).rounded() / 1000, title: $0.title) }
    }
}
