import Foundation
import StreamInput

/// The latest connection of a stream, handed from the network thread to the recorder. The network
/// thread serves every station, so it only ever takes this small lock, never the recorder's, which
/// is held across disk writes and syncs.
final class ConnectionInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: ConnectionInfo?
    private var unread = false

    func post(_ info: ConnectionInfo) {
        lock.withLock {
            latest = info
            unread = true
        }
    }

    /// The connection not yet taken, if a new one came.
    func take() -> ConnectionInfo? {
        lock.withLock {
            defer { unread = false }
            return unread ? latest : nil
        }
    }

    /// The latest connection, taken or not.
    var current: ConnectionInfo? { lock.withLock { latest } }
}
