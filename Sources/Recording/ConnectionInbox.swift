import Foundation
import RadioModel
import StreamInput

/// The latest connection of a stream, handed from the network thread to the recorder. The network
/// thread serves every station, so it only ever takes this small lock, never the recorder's, which
/// is held across disk writes and syncs.
final class ConnectionInbox: Sendable {
    private let state = Locked<(latest: ConnectionInfo?, unread: Bool)>((nil, false))

    func post(_ info: ConnectionInfo) {
        state.withLock { $0 = (info, true) }
    }

    /// The connection not yet taken, if a new one came.
    func take() -> ConnectionInfo? {
        state.withLock { state in
            defer { state.unread = false }
            return state.unread ? state.latest : nil
        }
    }

    /// The latest connection, taken or not.
    var current: ConnectionInfo? { state.current.latest }
}
