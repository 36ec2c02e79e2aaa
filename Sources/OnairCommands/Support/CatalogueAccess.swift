import Engine
import Foundation
import RadioModel

/// How commands reach the station catalogue: the shipped stations.json found from the executable's
/// location, overlaid with the user's own file.
enum CatalogueAccess {
    /// The user's directories, from this process's environment.
    static var paths: AppPaths { AppPaths(environment: ProcessInfo.processInfo.environment) }

    /// The user's own catalogue, where `onair search --add` writes.
    static var userCatalogue: UserCatalogue { UserCatalogue(paths: paths) }

    /// Loads the catalogue; a malformed file becomes a configuration failure naming its line and field.
    static func load() throws(CommandFailure) -> Catalogue {
        let environment = ProcessInfo.processInfo.environment
        let shippedURL = Catalogue.shippedCatalogueURL(executableURL: executableURL, environment: environment)
        if shippedURL == nil {
            Console.message("onair: warning: no shipped stations.json found (set ONAIR_STATIONS to its path); "
                + "using only \(paths.userCatalogueURL.path)")
        }
        do {
            return try Catalogue.load(shippedURL: shippedURL, userURL: paths.userCatalogueURL)
        } catch {
            throw failure(error)
        }
    }

    /// The catalogue for a long-running process (the daemon): the shipped file is looked for once (and
    /// its absence said once), then both files are read again whenever one has changed (`CatalogueReader`),
    /// so a station added to the user's file is there at once.
    static func reader() -> @Sendable () throws -> Catalogue {
        let shippedURL = Catalogue.shippedCatalogueURL(executableURL: executableURL, environment: ProcessInfo.processInfo.environment)
        if shippedURL == nil {
            Console.message("onair: warning: no shipped stations.json found (set ONAIR_STATIONS to its path); "
                + "using only \(paths.userCatalogueURL.path)")
        }
        let reader = CatalogueReader(shippedURL: shippedURL, userURL: paths.userCatalogueURL)
        return { () throws -> Catalogue in
            do throws(CatalogueError) {
                return try reader.read()
            } catch {
                throw failure(error)
            }
        }
    }

    /// A catalogue problem as the failure commands report: its one line, exit status 3.
    static func failure(_ error: CatalogueError) -> CommandFailure {
        CommandFailure(message: error.description, exitCode: ExitStatus.configuration)
    }

    /// The running executable, symlinks resolved later; argv[0] against the working directory if
    /// the system cannot say.
    private static var executableURL: URL? {
        if let url = Bundle.main.executableURL { return url }
        guard let argument = CommandLine.arguments.first else { return nil }
        return URL(fileURLWithPath: argument,
                   relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .absoluteURL
    }
}

extension StreamTarget {
    /// A catalogue station by id, or a URL.
    static func named(_ text: String) throws -> StreamTarget {
        try parse(text, catalogue: CatalogueAccess.load)
    }
}
