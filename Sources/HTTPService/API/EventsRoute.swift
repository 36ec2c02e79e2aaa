import Daemon
import Engine
import Foundation
import Hummingbird
import RadioModel

/// `GET /api/v1/events`: the daemon's live events as Server-Sent Events, one JSON object per event
/// (`type`: title, gap, reconnect, episode-start, episode-end, job-start, job-stop, recording-deleted;
/// `station`; `title` for titles). A comment every 15 s keeps proxies from closing a quiet stream.
enum EventsRoute {
    static let keepAlive = Duration.seconds(15)

    static func response(_ events: DaemonEvents) throws -> Response {
        guard let stream = events.subscribe() else {
            throw APIError(.serviceUnavailable, "\(DaemonEvents.maxSubscribers) event streams are open, as many as this daemon serves: close one")
        }
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "keep-alive"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": onair events\n\n"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let outbox = AsyncStream.makeStream(of: String.self)
                group.addTask {
                    for await event in stream {
                        outbox.continuation.yield("data: \(String(decoding: OnairJSON.data(event), as: UTF8.self))\n\n")
                    }
                    outbox.continuation.finish()
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: keepAlive)
                        outbox.continuation.yield(": keep-alive\n\n")
                    }
                }
                defer { group.cancelAll() }
                for await text in outbox.stream { try await writer.write(ByteBuffer(string: text)) }
            }
            try await writer.finish(nil)
        })
    }
}
