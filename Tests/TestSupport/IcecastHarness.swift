import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Icecast 2.4 server on 127.0.0.1 and a free port, with ffmpeg source clients playing sine
/// tones into mounts, for tests that need a genuine peer. Everything runs from a temporary
/// directory and is killed by `stop()`, on deinit, or (thanks to ProcessRunner) when the test
/// process dies.
///
///     let icecast = try IcecastHarness()
///     defer { icecast.stop() }
///     try icecast.startSource(mount: "/tone.mp3", codec: .mp3, frequency: 440, title: "Artist - Title")
///     let stream = icecast.url(mount: "/tone.mp3")
///
/// What Icecast 2.4.4 does, measured (see also the self-tests):
/// - Icecast accepts connections at once, but for the first ~0.1–0.5 s its status-json.xsl is
///   invalid JSON (the server fields are not filled in yet); `init` waits until it is valid.
/// - A mount is listed in status-json.xsl ~0.2 s after ffmpeg starts; bytes flow at once.
/// - `Icy-MetaData: 1` on an MP3/AAC mount gets `HTTP/1.0 200 OK` with `icy-metaint: 16000` and
///   in-band blocks. The first block carries the title current at the *start of the burst*.
/// - Burst on connect: a new listener first receives up to `burstSize` bytes of recent audio
///   (64 KB ≈ 4 s of 128 kbit/s) at full speed, so it runs that far behind the source: a title set
///   through the admin URL reaches it ~4 s later. Use `burstSize: 0` for immediate titles.
/// - On Ogg mounts (Vorbis, Opus) the reply has `icy-metadata:1` but no `icy-metaint`: no in-band
///   blocks. Listeners first get the stream's cached Ogg header pages, so titles travel as Vorbis
///   comments / OpusTags. An admin title update on a Vorbis mount makes Icecast insert new header
///   pages with a `title=` comment; on an Opus mount Icecast refuses it ("Mountpoint will not
///   accept URL updates"), so the title must come from the source (`-metadata title=` at start).
/// - The admin `song` value is read as ISO-8859-1 unless the request names a `charset`, and MP3/AAC
///   in-band titles are re-encoded to ISO-8859-1 (characters outside it become `&#NNNN;`).
///   `setTitle` sends no charset, so the bytes given arrive in the ICY block unchanged.
/// - Apostrophes and `';` inside a title are sent as they are, unescaped.
/// - When a source stops, its listeners get end of stream at once and the mount is gone (404).
/// - status-json.xsl lists one source as an object, several as an array.
public final class IcecastHarness: @unchecked Sendable {
    public let port: UInt16
    public let sourcePassword: String
    public let adminPassword: String

    private let directory: TemporaryDirectory
    /// Replaced by `restartServer`; guarded by `lock`.
    private var server: RunningProcess
    private let lock = NSLock()
    private var sources: [String: RunningProcess] = [:]

    /// Starts Icecast and waits until it answers.
    ///
    /// - Parameter burstSize: bytes a new listener gets at once (Icecast's default is 65535);
    ///   0 turns the burst off.
    /// - Parameter bindAddress: where it listens; a test inside a network namespace of its own may open it to
    ///   every address of that namespace ("0.0.0.0"), for a daemon in another namespace linked to it.
    public init(burstSize: Int = 65535, startupTimeout: TimeInterval = 10, bindAddress: String = "127.0.0.1") throws {
        guard let icecast = ProcessRunner.which("icecast2") else {
            throw IcecastHarnessError.notInstalled
        }
        directory = try TemporaryDirectory(prefix: "onair-icecast")
        if geteuid() == 0 {
            // Icecast runs as nobody (it refuses root) and writes its logs here.
            guard let nobody = getpwnam("nobody"), let nogroup = getgrnam("nogroup"),
                  chown(directory.url.path, nobody.pointee.pw_uid, nogroup.pointee.gr_gid) == 0
            else { throw IcecastHarnessError.startFailed("cannot hand \(directory.url.path) to nobody:nogroup") }
        }
        sourcePassword = Self.randomSecret()
        adminPassword = Self.randomSecret()

        // The port is free when picked but may be taken before Icecast binds it: retry.
        var lastLog = ""
        for _ in 1...3 {
            let port = try FreePort.pick()
            let config = directory.file("icecast.xml")
            try Self.config(port: port, burstSize: burstSize, sourcePassword: sourcePassword,
                            adminPassword: adminPassword, directory: directory.url, bindAddress: bindAddress)
                .write(to: config, atomically: true, encoding: .utf8)
            let process = try ProcessRunner.start(icecast, ["-c", config.path],
                                                  currentDirectory: directory.url, unprivileged: true)
            if Self.waitUntilServing(port: port, process: process, timeout: startupTimeout) {
                self.port = port
                server = process
                return
            }
            process.stop(grace: 0)
            lastLog = process.stderrText + ((try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? "")
        }
        throw IcecastHarnessError.startFailed(lastLog)
    }

    /// `http://127.0.0.1:PORT/MOUNT`
    public func url(mount: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(mount)")!
    }

    /// Where a source client sends a mount, for ffmpeg or onair's own Icecast push:
    /// `icecast://source:PASSWORD@127.0.0.1:PORT/MOUNT`
    public func sourceURL(mount: String) -> String {
        "icecast://source:\(sourcePassword)@127.0.0.1:\(port)\(mount)"
    }

    /// Icecast with `mount` live, playing a sine tone: how most tests begin. It throws rather than skips:
    /// the README's test command installs icecast2, so a test that cannot start it has failed.
    public static func playing(_ mount: String, codec: AudioCodec = .mp3, frequency: Double = 440, title: String? = nil,
                               burstSize: Int = 0, bindAddress: String = "127.0.0.1") throws -> IcecastHarness {
        let icecast = try IcecastHarness(burstSize: burstSize, bindAddress: bindAddress)
        do {
            try icecast.startSource(mount: mount, codec: codec, frequency: frequency, title: title)
        } catch {
            icecast.stop()
            throw error
        }
        return icecast
    }

    /// Starts an ffmpeg source client playing an endless sine tone (or `file`, once) into `mount` in real time and
    /// waits until the mount is live. A source already on that mount is replaced.
    ///
    /// - Parameters:
    ///   - title: for MP3/AAC set through the admin URL once live; for Ogg given to the
    ///     encoder as a comment (the only way for Opus, see the type's notes).
    ///   - gain: the tone's level in dB from ffmpeg's sine (1/8 full scale, about -22 LUFS in stereo).
    public func startSource(
        mount: String,
        codec: AudioCodec = .mp3,
        frequency: Double = 440,
        title: String? = nil,
        bitrate: Int? = nil,
        sampleRate: Int? = nil,
        gain: Double = 0,
        file: URL? = nil,
        timeout: TimeInterval = 10
    ) throws {
        precondition(mount.hasPrefix("/"), "a mount starts with /")
        let inOgg = codec == .oggVorbis || codec == .oggOpus
        let input = file.map { ["-i", $0.path] }
            ?? ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate ?? codec.defaultSampleRate)"]
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-re"] + input + ["-ac", "2", "-af", "volume=\(gain)dB"]
        if let title, inOgg { arguments += ["-metadata", "title=\(title)"] }
        arguments += codec.ffmpegArguments(bitrate: bitrate)
            + ["-content_type", codec.contentType, "-ice_name", "onair test \(mount)", sourceURL(mount: mount)]
        let source = try ProcessRunner.start("ffmpeg", arguments)
        lock.lock()
        let previous = sources.updateValue(source, forKey: mount)
        lock.unlock()
        previous?.stop(grace: 0)

        let deadline = Date(timeIntervalSinceNow: timeout)
        while try !mounts().contains(where: { $0.mount == mount }) {
            if !source.isRunning {
                throw IcecastHarnessError.sourceFailed(mount: mount, log: source.result().description)
            }
            guard Date() < deadline else {
                throw IcecastHarnessError.sourceFailed(mount: mount, log: "not live after \(timeout) s\n" + log)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if let title, !inOgg { try setTitle(mount: mount, title) }
    }

    /// Sets the mount's title through the admin interface, as UTF-8.
    public func setTitle(mount: String, _ title: String) throws {
        try setTitle(mount: mount, bytes: Array(title.utf8))
    }

    /// Sets the mount's title to exactly these bytes (Latin-1, UTF-8, anything): no `charset` is
    /// sent, so Icecast passes them through to the ICY block unchanged.
    public func setTitle(mount: String, bytes: [UInt8]) throws {
        let query = "mount=\(Self.percentEncoded(Array(mount.utf8)))&mode=updinfo&song=\(Self.percentEncoded(bytes))"
        let response = try RawHTTP.get(URL(string: "http://admin:\(adminPassword)@127.0.0.1:\(port)/admin/metadata?\(query)")!)
        guard response.statusCode == 200, response.bodyText.contains("<return>1</return>") else {
            throw IcecastHarnessError.adminRequestFailed("\(response.statusLine)\n\(response.bodyText)")
        }
    }

    /// Stops the source on `mount` and waits until Icecast has dropped the mount.
    public func stopSource(mount: String, timeout: TimeInterval = 5) throws {
        lock.lock()
        let source = sources.removeValue(forKey: mount)
        lock.unlock()
        source?.stop(grace: 2)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while try mounts().contains(where: { $0.mount == mount }) {
            guard Date() < deadline else { throw IcecastHarnessError.timeout("mount \(mount) still listed after \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The live mounts, from status-json.xsl.
    public func mounts() throws -> [IcecastMount] {
        let response = try RawHTTP.get(URL(string: "http://127.0.0.1:\(port)/status-json.xsl")!)
        guard let root = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let stats = root["icestats"] as? [String: Any]
        else { throw IcecastHarnessError.adminRequestFailed("unexpected status-json.xsl: \(response.bodyText)") }
        let listed = stats["source"].map { $0 as? [[String: Any]] ?? [$0 as? [String: Any] ?? [:]] } ?? []
        return listed.compactMap { entry in
            guard let listenURL = (entry["listenurl"] as? String).flatMap(URL.init(string:)) else { return nil }
            return IcecastMount(mount: listenURL.path,
                                contentType: entry["server_type"] as? String,
                                title: entry["title"] as? String,
                                listeners: entry["listeners"] as? Int ?? 0)
        }
    }

    /// Kills Icecast (as a crash would: every source and listener loses its connection at once) and
    /// starts it again on the same port with the same passwords; returns once it answers. The ffmpeg
    /// sources are not restarted: their mounts are gone until a source connects again.
    public func restartServer(timeout: TimeInterval = 10) throws {
        lock.lock()
        let old = server
        lock.unlock()
        old.stop(grace: 0)
        let restarted = try ProcessRunner.start(old.command[0], Array(old.command.dropFirst()),
                                                currentDirectory: directory.url, unprivileged: true)
        lock.lock()
        server = restarted
        lock.unlock()
        guard Self.waitUntilServing(port: port, process: restarted, timeout: timeout) else {
            throw IcecastHarnessError.startFailed(restarted.stderrText + log)
        }
    }

    /// Icecast's error log so far, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.file("error.log"), encoding: .utf8)) ?? ""
    }

    /// Kills the sources and the server and removes the temporary directory. Idempotent.
    /// SIGKILL at once: nothing here has state worth a graceful shutdown, and Icecast takes ~1 s
    /// to exit on SIGTERM.
    public func stop() {
        lock.lock()
        let running = Array(sources.values)
        sources.removeAll()
        lock.unlock()
        running.forEach { $0.stop(grace: 0) }
        lock.lock()
        let server = self.server
        lock.unlock()
        server.stop(grace: 0)
        directory.remove()
    }

    deinit { stop() }

    private static func waitUntilServing(port: UInt16, process: RunningProcess, timeout: TimeInterval) -> Bool {
        let status = URL(string: "http://127.0.0.1:\(port)/status-json.xsl")!
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline && process.isRunning {
            // Icecast answers before its stats thread has filled in the server fields, and until then
            // status-json.xsl is not even valid JSON; so ready means valid JSON naming the server.
            if let reply = try? RawHTTP.get(status, timeout: 1), reply.statusCode == 200,
               let json = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any],
               (json["icestats"] as? [String: Any])?["server_id"] != nil {
                return true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    private static func config(port: UInt16, burstSize: Int, sourcePassword: String, adminPassword: String,
                               directory: URL, bindAddress: String) -> String {
        """
        <icecast>
            <location>onair tests</location>
            <admin>tests@localhost</admin>
            <hostname>127.0.0.1</hostname>
            <limits>
                <clients>100</clients>
                <sources>32</sources>
                <queue-size>524288</queue-size>
                <client-timeout>30</client-timeout>
                <header-timeout>15</header-timeout>
                <source-timeout>10</source-timeout>
                <burst-on-connect>\(burstSize > 0 ? 1 : 0)</burst-on-connect>
                <burst-size>\(burstSize)</burst-size>
            </limits>
            <authentication>
                <source-password>\(sourcePassword)</source-password>
                <relay-password>\(sourcePassword)</relay-password>
                <admin-user>admin</admin-user>
                <admin-password>\(adminPassword)</admin-password>
            </authentication>
            <listen-socket>
                <port>\(port)</port>
                <bind-address>\(bindAddress)</bind-address>
            </listen-socket>
            <fileserve>1</fileserve>
            <paths>
                <basedir>\(directory.path)</basedir>
                <logdir>\(directory.path)</logdir>
                <pidfile>\(directory.path)/icecast.pid</pidfile>
                <webroot>/usr/share/icecast2/web</webroot>
                <adminroot>/usr/share/icecast2/admin</adminroot>
            </paths>
            <logging>
                <accesslog>access.log</accesslog>
                <errorlog>error.log</errorlog>
                <loglevel>3</loglevel>
            </logging>
        </icecast>
        """
    }

    private static func randomSecret() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16)).lowercased()
    }

    /// Percent-encodes every byte outside RFC 3986's unreserved set (and `/`).
    private static func percentEncoded(_ bytes: [UInt8]) -> String {
        let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8))
        return bytes.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }
}

/// A live mount as status-json.xsl lists it.
public struct IcecastMount: Sendable, Equatable {
    public let mount: String
    public let contentType: String?
    /// The title as Icecast shows it on its status page (for MP3 mounts decoded as ISO-8859-1).
    public let title: String?
    public let listeners: Int
}

public enum IcecastHarnessError: Error, CustomStringConvertible {
    case notInstalled
    case startFailed(String)
    case sourceFailed(mount: String, log: String)
    case adminRequestFailed(String)
    case timeout(String)

    public var description: String {
        switch self {
        case .notInstalled: return "icecast2 is not installed; run scripts/setup"
        case .startFailed(let log): return "Icecast did not start:\n\(log)"
        case .sourceFailed(let mount, let log): return "the ffmpeg source for \(mount) failed: \(log)"
        case .adminRequestFailed(let reply): return "Icecast admin request failed: \(reply)"
        case .timeout(let what): return "Icecast: \(what)"
        }
    }
}
