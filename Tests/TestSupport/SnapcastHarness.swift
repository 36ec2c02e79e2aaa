import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Snapcast 0.26 chain on loopback: snapserver reading a pipe source, and on request a
/// snapclient whose file player writes what a speaker would play (raw PCM in the stream's format).
/// Ports are free ones, the configuration and state live in a temporary directory, and everything
/// is killed by `stop()`, on deinit, or with the test process.
///
///     let snapcast = try SnapcastHarness(fifo: fifo.path)
///     defer { snapcast.stop() }
///     try snapcast.startClient()
///     … snapcast.output holds raw 48000:16:2 PCM …
///
/// What snapserver 0.26 does, measured: it opens a pipe source without blocking and, when a read
/// finds end-of-file (no writer holds the FIFO), closes it and opens it again 100 ms later, so a
/// writer that opens without blocking must already hold the FIFO to ever meet it; a control script
/// is started with `--stream=NAME` only (no `controlscriptparams` before 0.27), in snapserver's
/// environment, and the metadata it sends with `Plugin.Stream.Player.Properties` shows in
/// `Server.GetStatus`.
public final class SnapcastHarness: @unchecked Sendable {
    public let streamPort: UInt16
    public let controlPort: UInt16
    /// The file snapclient's player writes.
    public let output: URL
    private let directory: TemporaryDirectory
    private let server: RunningProcess
    private let lock = NSLock()
    private var client: RunningProcess?

    /// Starts snapserver with one pipe source, `radio`, in 48000:16:2.
    ///
    /// - Parameters:
    ///   - fifo: the pipe snapserver reads.
    ///   - mode: `read` (the FIFO must exist) or `create` (snapserver makes it if missing).
    ///   - controlScript: a stream plugin for metadata, started by snapserver.
    ///   - environment: for snapserver and so for its control script.
    public init(fifo: String, mode: String = "create", controlScript: String? = nil,
                environment: [String: String] = [:], startupTimeout: TimeInterval = 10) throws {
        guard let snapserver = ProcessRunner.which("snapserver") else {
            throw ProcessRunnerError.executableNotFound("snapserver")
        }
        directory = try TemporaryDirectory(prefix: "onair-snapcast")
        output = directory.file("snapclient.raw")
        streamPort = try FreePort.pick()
        controlPort = try FreePort.pick()
        var source = "pipe://\(fifo)?name=radio&mode=\(mode)&sampleformat=48000:16:2"
        if let controlScript { source += "&controlscript=\(controlScript)" }
        let config = """
            [server]
            datadir = \(directory.url.path)
            [stream]
            source = \(source)
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [http]
            enabled = false
            [logging]
            sink = stderr
            """
        let configFile = directory.file("snapserver.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        server = try ProcessRunner.start(snapserver, ["-c", configFile.path], environment: environment,
                                         currentDirectory: directory.url)
        let deadline = Date(timeIntervalSinceNow: startupTimeout)
        while !FreePort.isAccepting(controlPort) {
            guard server.isRunning, Date() < deadline else {
                server.stop(grace: 0)
                throw SnapcastHarnessError.startFailed(server.result().description)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Starts snapclient with its file player writing to `output`.
    public func startClient() throws {
        let process = try ProcessRunner.start("snapclient", [
            "--host", "127.0.0.1", "--port", "\(streamPort)", "--hostID", "onair-test",
            "--player", "file:filename=\(output.path)", "--logsink", "stderr",
        ], currentDirectory: directory.url)
        lock.withLock { client = process }
    }

    /// Bytes snapclient has played so far.
    public var outputBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: output.path)[.size]) as? Int) ?? 0
    }

    /// The stream's metadata as snapserver reports it (`Server.GetStatus`), nil before it has any.
    public func streamMetadata() throws -> [String: Any]? {
        let status = try request("Server.GetStatus")
        let streams = ((status["server"] as? [String: Any])?["streams"] as? [[String: Any]]) ?? []
        let radio = streams.first { $0["id"] as? String == "radio" }
        return (radio?["properties"] as? [String: Any])?["metadata"] as? [String: Any]
    }

    /// One JSON-RPC call on the control port; returns its `result`.
    public func request(_ method: String) throws -> [String: Any] {
        let fd = try LoopbackSocket.connect(port: controlPort)
        defer { close(fd) }
        try LoopbackSocket.sendAll(fd, Data("{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"\(method)\"}\r\n".utf8))
        var reply = Data()
        let deadline = Date(timeIntervalSinceNow: 5)
        while Date() < deadline {
            guard let chunk = try LoopbackSocket.receive(fd, timeout: 0.5) else { break }
            reply.append(chunk)
            // Notifications may come first; the answer is the line with our id.
            for line in reply.split(separator: 0x0A) {
                if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                   object["id"] as? Int == 1, let result = object["result"] as? [String: Any] {
                    return result
                }
            }
        }
        throw SnapcastHarnessError.noReply(method: method, reply: String(decoding: reply, as: UTF8.self))
    }

    /// snapserver's and snapclient's logs, for failure messages.
    public var log: String {
        "snapserver:\n\(server.stderrText.suffix(3000))\nsnapclient:\n\(lock.withLock { client }?.stderrText.suffix(3000) ?? "")"
    }

    /// Kills both and removes the temporary directory. Idempotent.
    public func stop() {
        lock.withLock { client }?.stop(grace: 1)
        server.stop(grace: 1)
        directory.remove()
    }

    deinit { stop() }
}

public enum SnapcastHarnessError: Error, CustomStringConvertible {
    case startFailed(String)
    case noReply(method: String, reply: String)

    public var description: String {
        switch self {
        case .startFailed(let log): return "snapserver did not start: \(log)"
        case .noReply(let method, let reply): return "snapserver did not answer \(method): \(reply)"
        }
    }
}
