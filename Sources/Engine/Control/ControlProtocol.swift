import Foundation
import RadioModel
import Scheduling

/// What a client asks the daemon over its control channel: one JSON line, `{"command":"status"}`,
/// `{"command":"start-job","job":{…}}`, … The same operations are what an HTTP API would offer.
public struct ControlRequest: Codable, Sendable {
    public enum Command: String, Codable, Sendable {
        /// What the daemon is doing: `DaemonStatus`.
        case status
        /// Re-read the schedule now: `ControlAcknowledgement`.
        case reload
        /// Start `job`: its `JobStatus`.
        case startJob = "start-job"
        /// The running jobs: `JobList`.
        case listJobs = "list-jobs"
        /// Stop the job `id`: its last `JobStatus`.
        case stopJob = "stop-job"
    }

    public var command: Command
    public var job: JobSpec?
    public var id: Int64?

    public init(_ command: Command, job: JobSpec? = nil, id: Int64? = nil) {
        self.command = command; self.job = job; self.id = id
    }
}

/// `{"ok":true}`
public struct ControlAcknowledgement: Codable, Sendable {
    public var ok = true
    public init() {}
}

/// `{"jobs":[…]}`
public struct JobList: Codable, Sendable {
    public var jobs: [JobStatus]
    public init(jobs: [JobStatus]) { self.jobs = jobs }
}

/// `{"error":"…","kind":"notFound"}`: the request failed; `kind` says whose fault it was.
public struct ControlFailure: Codable, Sendable {
    public var error: String
    public var kind: EngineError.Kind
    public init(error: String, kind: EngineError.Kind) { (self.error, self.kind) = (error, kind) }
}

/// A client's end: sends one request to the daemon listening at `socket` and decodes its reply.
public struct ControlClient: Sendable {
    public let socket: String

    public init(socket: String) { self.socket = socket }

    /// The daemon's socket in a data directory.
    public init(dataDirectory: URL) {
        socket = dataDirectory.appendingPathComponent(ControlChannel.socketName).path
    }

    /// The reply as the daemon wrote it (for `--json`), checked to be `Reply` and not a failure.
    /// `timeout`: how long the daemon may take (stopping a recording waits for its file to be finalised).
    public func send<Reply: Decodable>(_ request: ControlRequest, expecting: Reply.Type,
                                       timeout: TimeInterval = 5) throws -> (reply: Reply, json: Data) {
        let answer: Data
        do {
            answer = try ControlChannel.send(OnairJSON.data(request), to: socket, timeout: timeout)
        } catch {
            throw EngineError("\(error)", kind: .stream)
        }
        if let failure = try? OnairJSON.decoder.decode(ControlFailure.self, from: answer) {
            throw EngineError(failure.error, kind: failure.kind)
        }
        guard let reply = try? OnairJSON.decoder.decode(Reply.self, from: answer) else {
            throw EngineError("the daemon's answer was not understood", kind: .stream)
        }
        return (reply, answer)
    }
}
