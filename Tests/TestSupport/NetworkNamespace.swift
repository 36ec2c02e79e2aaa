import Foundation

/// A network namespace for one process of a test (a daemon on "another machine"), linked to the test's own
/// namespace by veth pairs whose addresses the test makes: link `k` is 10.(90+k).0.0/24, the test's end
/// `.1`, this namespace's end `.2`. Taking a link's end down cuts that path and nothing else, as a partition
/// would: packets go nowhere, no connection is refused.
///
/// Made only inside a `PrivateNetwork` run, as root: the links' ends stay in the test's own namespace, never the
/// machine's. Removed when released.
public final class NetworkNamespace {
    public struct Link: Sendable {
        /// The interface at the test's end.
        public let outside: String
        /// The test's end's address, reachable from inside.
        public let outsideAddress: String
        /// The block of the inside end's address, for servers that let it in.
        public let insideBlock: String
    }

    public let name: String
    public let links: [Link]

    public init(links count: Int) throws {
        precondition(PrivateNetwork.interface != nil, "a namespace of its own is made inside a PrivateNetwork run only")
        let id = String(format: "%04x", UInt16.random(in: .min ... .max))
        name = "onair-\(id)"
        var links: [Link] = [], script = "set -e\nip netns add \(name)\nip netns exec \(name) ip link set lo up\n"
        for index in 0..<count {
            let outside = "oa\(id)o\(index)", inside = "oa\(id)i\(index)", subnet = "10.\(90 + index).0"
            script += """
                ip link add \(outside) type veth peer name \(inside) netns \(name)
                ip addr add \(subnet).1/24 dev \(outside)
                ip link set \(outside) up
                ip netns exec \(name) ip addr add \(subnet).2/24 dev \(inside)
                ip netns exec \(name) ip link set \(inside) up

                """
            links.append(Link(outside: outside, outsideAddress: "\(subnet).1", insideBlock: "\(subnet).0/24"))
        }
        self.links = links
        _ = try ProcessRunner.run("sh", ["-c", script], timeout: 30).check()
    }

    deinit { _ = try? ProcessRunner.run("ip", ["netns", "delete", name], timeout: 30) }

    /// `command` run inside: what `ProcessRunner.start` takes.
    public func wrap(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        ("ip", ["netns", "exec", name, executable] + arguments)
    }

    /// Takes the test's end of `link` down: the path is cut both ways.
    public func cut(_ link: Link) throws {
        _ = try ProcessRunner.run("ip", ["link", "set", link.outside, "down"], timeout: 30).check()
    }

    public func restore(_ link: Link) throws {
        _ = try ProcessRunner.run("ip", ["link", "set", link.outside, "up"], timeout: 30).check()
    }
}
