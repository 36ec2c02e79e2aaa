import ArgumentParser
import Foundation
import Scrobbling
import StreamInput

struct ScrobbleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrobble",
        abstract: "Send what you hear to ListenBrainz (or a server speaking its API).",
        discussion: """
        Once logged in, `onair listen` sends each song it plays for at least 30 s (a title "Artist - Title") \
        as a listen, with the station as the music service, and the song on now as playing now; `onair daemon \
        --scrobble-station ID` sends what a station plays. Listens are kept in onair's database until the \
        server has taken them: sent in order, once, also after the server was away or onair restarted.

        Examples:
          onair scrobble login                      # reads the token (listenbrainz.org/settings) from stdin
          onair scrobble login --server http://127.0.0.1:42010/apis/listenbrainz < token.txt
          onair scrobble status
          onair scrobble logout

        Exit codes: 0 success; 3 no token given, or the database cannot be opened.
        """,
        subcommands: [Login.self, Status.self, Logout.self],
        defaultSubcommand: Status.self
    )

    static func store() throws -> ScrobbleStore {
        do { return try ScrobbleStore(dataDirectory: CatalogueAccess.paths.data) } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// The scrobbler of the account set, if one is; its problems are lines on stderr.
    static func scrobbler() -> Scrobbler? {
        guard let store = try? store(), let account = try? store.account() else { return nil }
        return Scrobbler(store: store, account: account) { Console.message("scrobbling: \($0)") }
    }

    struct Login: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Keep the ListenBrainz token (read from stdin: not in the process list).")
        @Option(help: ArgumentHelp("The API's root: ListenBrainz's, or a server that speaks its API.", valueName: "url"))
        var server = ScrobbleStore.listenBrainz

        func validate() throws {
            guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), let host = url.host else {
                throw ValidationError("invalid --server '\(URLRedaction.redact(server))': an http(s) URL such as \(ScrobbleStore.listenBrainz)")
            }
            // The token goes with every listen: in the clear only to this machine.
            guard url.scheme == "https" || ["127.0.0.1", "localhost", "::1"].contains(host) else {
                throw ValidationError("--server '\(URLRedaction.redact(server))' is plain http to another machine: use https, the token goes with every listen")
            }
        }

        func run() throws {
            let token = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
            guard !token.isEmpty, token.count <= 256, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw CommandFailure(message: "no token on stdin: echo TOKEN | onair scrobble login", exitCode: ExitStatus.configuration)
            }
            do { try ScrobbleCommand.store().setAccount(.init(server: server, token: token)) } catch {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
            }
            Console.message("Listens go to \(URLRedaction.redact(server)).")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Where listens go, and how many wait to be sent.")

        func run() throws {
            let store = try ScrobbleCommand.store()
            do {
                guard let account = try store.account() else { return print("Not logged in: onair scrobble login") }
                print("Listens go to \(URLRedaction.redact(account.server)) (token …\(account.token.suffix(4))); \(try store.queued()) waiting to be sent.")
            } catch {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
            }
        }
    }

    struct Logout: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the token; listens not sent yet stay until the next login.")

        func run() throws {
            do { try ScrobbleCommand.store().setAccount(nil) } catch {
                throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
            }
            Console.message("Logged out.")
        }
    }
}
