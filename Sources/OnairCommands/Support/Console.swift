import ArgumentParser
import Engine
import Foundation
import RadioModel
import StreamInput
#if canImport(Glibc)
import Glibc
#endif

/// Where the CLI's words go: messages on stderr, machine output as JSON lines.
enum Console {
    /// One writer at a time: lines from several threads never interleave.
    private static let output = Serialized()

    /// One line on stderr — the CLI's messages and the daemon's log — made printable (`UntrustedText`): they
    /// quote stations' names, titles, URLs and servers' words, whose escape sequences a terminal would obey.
    static func message(_ text: String) {
        let line = UntrustedText.printable(text)
        output.run { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// One JSON object per line, on stdout or stderr, its C1 and bidirectional controls escaped (`UntrustedText`).
    static func json<T: Encodable>(_ value: T, toStandardError: Bool = false) {
        guard let data = try? OnairJSON.encoder.encode(value) else { return }
        let line = UntrustedText.escapingControls(inJSON: String(decoding: data, as: UTF8.self)) + "\n"
        output.run {
            let handle = toStandardError ? FileHandle.standardError : FileHandle.standardOutput
            handle.write(Data(line.utf8))
        }
    }

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

/// Exit codes, documented in `onair --help`.
enum ExitStatus {
    /// The stream could not be played: unreachable, not audio, or reconnecting gave up.
    static let streamFailed: Int32 = 1
    /// A sink could not be opened or failed while writing (disk full, closed pipe).
    static let sinkFailed: Int32 = 2
    /// A configuration problem: a malformed catalogue, an unknown station.
    static let configuration: Int32 = 3
    /// Nothing by that name: a recording, rule, favourite or file asked for does not exist.
    static let notFound: Int32 = 4
}

/// A failure the CLI reports as one plain line and an exit code.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32
    var description: String { message }
}

/// Runs a command's body, reporting a `CommandFailure` as the one line and exit status the CLI promises.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as CommandFailure {
        Console.message("onair: \(failure.message)")
        throw ExitCode(failure.exitCode)
    } catch let error as EngineError {
        Console.message("onair: \(error.description)")
        throw ExitCode(ExitStatus.of(error.kind))
    }
}

extension ExitStatus {
    /// The status an engine failure of this kind exits with.
    static func of(_ kind: EngineError.Kind) -> Int32 {
        switch kind {
        case .stream: return streamFailed
        case .sink: return sinkFailed
        case .configuration: return configuration
        case .notFound: return notFound
        }
    }
}
