import Foundation

/// The real-world corpus (`Tests/StreamInputTests/Fixtures/realworld`): playlists and ICY data written
/// by broadcasters and other projects, each with what a correct client concludes (`cases.json`,
/// `icy/metadata-cases.json`), and the loopback server that stands in for the internet (`serve.py`).
public struct RealWorldCorpus: Sendable {
    public let directory: URL

    /// The corpus in the package (found from this file's path, so it does not depend on the working
    /// directory). Throws a plain message when it is missing: the tests must not pass without it.
    public init(filePath: String = #filePath) throws {
        let packageRoot = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        directory = packageRoot.appendingPathComponent("Tests/StreamInputTests/Fixtures/realworld").standardizedFileURL
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("cases.json").path) else {
            throw CorpusMissing(directory: directory.path)
        }
    }

    public struct CorpusMissing: Error, CustomStringConvertible {
        public let directory: String
        public var description: String {
            "the real-world corpus is missing: expected \(directory)/cases.json "
        }
    }

    public func file(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }

    public func data(_ relativePath: String) throws -> Data { try Data(contentsOf: file(relativePath)) }

    /// `cases.json`, as JSON objects.
    public func cases() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: data("cases.json")) as? [[String: Any]] ?? []
    }

    /// `icy/metadata-cases.json`, as JSON objects.
    public func metadataCases() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: data("icy/metadata-cases.json")) as? [[String: Any]] ?? []
    }

    public struct CorpusServerFailed: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Starts `serve.py` on a free loopback port; it stops when the returned server is released.
    public func serve(audio: URL? = nil) throws -> Server {
        try Server(corpus: self, audio: audio)
    }

    /// The corpus server (python's http.server plus the corpus's `/local/`, `/_ext/`, `/_dead/`, `/_raw/`, `/_icy/` views).
    public final class Server: @unchecked Sendable {
        public let port: UInt16
        private let process: RunningProcess
        private let logs: TemporaryDirectory

        init(corpus: RealWorldCorpus, audio: URL?) throws {
            logs = try TemporaryDirectory(prefix: "onair-corpus")
            var lastError: Error?
            for _ in 0..<3 {
                let port = try FreePort.pick()
                // Without an audio file, serve.py's stand-in mounts answer with an MP3 header and silence bytes.
                let process = try ProcessRunner.start("python3", [corpus.file("serve.py").path, corpus.directory.path, "\(port)",
                                                                  (audio ?? logs.file("no-audio.mp3")).path],
                                                      environment: ["CORPUS_LOG_DIR": logs.url.path])
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, process.isRunning, !FreePort.isAccepting(port) { Thread.sleep(forTimeInterval: 0.05) }
                if FreePort.isAccepting(port) {
                    self.port = port
                    self.process = process
                    return
                }
                process.stop()
                lastError = CorpusServerFailed(message: "serve.py did not listen on \(port): \(process.stderrText)")
            }
            throw lastError!
        }

        public func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)/\(pathAndQuery)" }

        deinit { process.stop() }
    }
}
