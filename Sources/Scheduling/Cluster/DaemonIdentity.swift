import Foundation

/// Who holds a lease among daemons sharing a database: this process, not its `--name`. Two daemons
/// given one name (or none: both default to the host's name) used to count each other's leases as
/// their own and record the same episode over two connections; each now has an instance id made at
/// start, and the name stays a label for people.
public struct DaemonIdentity: Sendable, Hashable {
    /// `--name`: what `onair status`, the logs and the metrics show.
    public let name: String
    /// Made at start (8 hex digits): never the same for two processes.
    public let instance: String
    /// The host it runs on: a predecessor with the same name is recognised only on the same host.
    public let host: String

    /// The lease holder's key in the database: the name and the instance together.
    public var owner: String { "\(name)/\(instance)" }

    public init(name: String, instance: String = Self.newInstance(), host: String = ProcessInfo.processInfo.hostName) {
        self.name = name
        self.instance = instance
        self.host = host
    }

    public static func newInstance() -> String {
        String(format: "%08x", UInt32.random(in: .min ... .max))
    }
}
