import ArgumentParser
import Foundation
import HTTPService
import Store
#if canImport(Glibc)
import Glibc
#endif

struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Set the web app's password and the API's tokens, which let other machines in.",
        discussion: """
        Until one is set, `onair daemon` serves HTTP on this machine only (127.0.0.1) and asks nothing. \
        Once a password or a token exists, every page asks for a login (the password), API clients send \
        `Authorization: Bearer TOKEN`, podcast apps use the feeds' secret addresses from the recordings \
        page, and the daemon may serve other machines (--http 0.0.0.0:8080). The password is kept as a \
        bcrypt hash and each token as its SHA-256, in onair's database; the running daemon sees changes at once. \
        A new password logs every browser out and gives the feeds new secret addresses.

        Examples:
          onair web password
          printf '%s\\n' "$PASSWORD" | onair web password --password-stdin
          onair web token create phone
          onair web token list
          onair web token revoke phone
          onair web app-password
          onair web feeds rotate

        Subsonic apps (DSub, Symfonium, Substreamer…) log in at http://BOX:PORT as the user `onair` with the web \
        password, or with the app password (`onair web app-password`) when they send a token and salt, or with \
        an API token as OpenSubsonic's apiKey.

        Exit codes: 0 success; 3 an empty password, a name in use, or the database cannot be opened; \
        4 no token by that name.
        """,
        subcommands: [Password.self, AppPassword.self, Token.self, Feeds.self]
    )

    static func credentials() throws -> WebCredentials {
        do {
            return try WebCredentials(database: OnairDatabase(directory: CatalogueAccess.paths.data))
        } catch {
            throw CommandFailure(message: "\(error)", exitCode: ExitStatus.configuration)
        }
    }

    /// A credential change refused (an empty password, a name in use) as one plain line and exit 3.
    static func changing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WebCredentialsError {
            throw CommandFailure(message: error.description, exitCode: ExitStatus.configuration)
        } catch let error as StoreError {
            throw CommandFailure(message: error.description, exitCode: ExitStatus.configuration)
        }
    }

    struct Password: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the password the web app asks for (typed twice, not shown; or one line on stdin).")

        @Flag(help: "Read the password from the first line of stdin, for scripts.")
        var passwordStdin = false

        func run() throws {
            try reportingFailures {
                let password = try passwordStdin ? Self.firstLineOfStandardInput() : Self.typed()
                try WebCommand.changing { try WebCommand.credentials().setPassword(password) }
                Console.message("The web password is set: every login ended, the feeds have new addresses; other machines may be served (onair daemon --http 0.0.0.0:8080).")
            }
        }

        private static func firstLineOfStandardInput() -> String {
            let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            return String(input.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
        }

        /// The password typed at the terminal twice, without echo.
        private static func typed() throws -> String {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandFailure(message: "stdin is not a terminal: give the password on it with --password-stdin",
                                     exitCode: ExitStatus.configuration)
            }
            let first = withoutEcho(prompt: "New web password: ")
            let second = withoutEcho(prompt: "The same again: ")
            guard first == second else {
                throw CommandFailure(message: "the two passwords differ: nothing was changed", exitCode: ExitStatus.configuration)
            }
            return first
        }

        private static func withoutEcho(prompt: String) -> String {
            FileHandle.standardError.write(Data(prompt.utf8))
            var saved = termios()
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
            defer {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
            return readLine(strippingNewline: true) ?? ""
        }
    }

    struct AppPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "app-password",
            abstract: "Make the password Subsonic apps log in with (user `onair`): printed once, kept sealed.",
            discussion: """
            Most Subsonic apps prove the password with its MD5 and a salt, for which the box must read the password \
            back: so the web password (kept only as a bcrypt hash) cannot serve them. The app password is generated, \
            shown once, and kept encrypted (AES-GCM) in onair's database with its key in its own file beside it \
            (app-password.key, mode 0600). A new one replaces the old.
            """)

        @Flag(help: "Remove the app password: apps using it are refused at once.")
        var remove = false

        func run() throws {
            try reportingFailures {
                if remove {
                    guard try WebCommand.changing({ try WebCommand.credentials().removeAppPassword() }) else {
                        throw CommandFailure(message: "there is no app password (make one with onair web app-password)", exitCode: ExitStatus.notFound)
                    }
                    Console.message("Removed the app password.")
                    return
                }
                let password = try WebCommand.changing { try WebCommand.credentials().createAppPassword() }
                print(password)
                Console.message("Log in from a Subsonic app as `onair` with this password; it is not shown again.")
            }
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke the API's bearer tokens.", subcommands: [Create.self, List.self, Revoke.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create a token: printed once, only its hash is kept.")

            @Argument(help: "A name to list and revoke it by (the device or script using it).")
            var name: String

            func run() throws {
                try reportingFailures {
                    let token = try WebCommand.changing { try WebCommand.credentials().createToken(name: name) }
                    print(token)
                    Console.message("Send it as `Authorization: Bearer TOKEN`; it is not shown again.")
                }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the tokens by name and creation time.")

            func run() throws {
                try reportingFailures {
                    let tokens = try WebCommand.changing { try WebCommand.credentials().tokens() }
                    if tokens.isEmpty { Console.message("No tokens: create one with `onair web token create NAME`.") }
                    for token in tokens { print("\(token.name)  created \(ISO8601DateFormatter().string(from: token.created))") }
                }
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a token: requests sending it are refused at once.")

            @Argument(help: "The token's name.")
            var name: String

            func run() throws {
                try reportingFailures {
                    guard try WebCommand.changing({ try WebCommand.credentials().revokeToken(name: name) }) else {
                        throw CommandFailure(message: "no token named '\(name)' (see onair web token list)", exitCode: ExitStatus.notFound)
                    }
                    Console.message("Revoked the token '\(name)'.")
                }
            }
        }
    }

    struct Feeds: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage the podcast feeds' secret addresses.", subcommands: [Rotate.self])

        struct Rotate: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Give the feeds new secret addresses: the old ones stop opening (a leaked address, a podcast app you stopped using).")

            func run() throws {
                try reportingFailures {
                    try WebCommand.changing { try WebCommand.credentials().rotateFeedKey() }
                    Console.message("The feeds have new secret addresses: give podcast apps the new ones from the recordings page.")
                }
            }
        }
    }
}
