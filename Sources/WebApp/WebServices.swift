import Daemon
import Hummingbird

/// What the daemon hands the web app: its facade, through which the pages reach the stores, the jobs,
/// the catalogue and the directory (each page inside one `perform`, see `PageServices`), and what the
/// daemon's web access adds to the pages.
public struct WebServices: Sendable {
    public let facade: DaemonFacade
    /// The CSRF token the forms of a page carry, and whether the request comes with a login (the pages
    /// then offer to log out): the daemon's `WebAccess.forms(for:)`.
    public var forms: @Sendable (Request) async -> (csrf: String?, loggedIn: Bool) = { _ in (nil, false) }
    /// A feed's path as a podcast app is given it: with its secret token once the box has credentials. Blocking (SQLite):
    /// the pages call it inside the facade's `perform`.
    public var feedAddress: @Sendable (String) -> String = { $0 }

    public init(facade: DaemonFacade) {
        self.facade = facade
    }
}
