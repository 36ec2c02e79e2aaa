import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A network namespace of one test's own, for peers that will not work on loopback (libupnp serves
/// only on a real interface, and SSDP discovery is multicast).
///
/// Such a test must not use the machine's network: a renderer anywhere on it answers the same
/// discovery, and two runs of the test at once (the suite runs some classes in two processes) collide
/// on the renderer's fixed port. So the test runs itself again — this test binary, that one test — in a
/// new network namespace with a loopback and a veth pair of its own, and asserts how that run ended.
/// Inside, `interface` names the veth end that carries the default route (multicast included).
public enum PrivateNetwork {
    static let variable = "ONAIR_TEST_PRIVATE_NETWORK"
    static let name = "onair0"

    /// The namespace's interface when this process runs inside one; nil outside.
    public static var interface: String? { ProcessInfo.processInfo.environment[variable] }

    /// Runs `test` ("Module.Class/method") of this test binary in a fresh network namespace and returns how it ended.
    ///
    /// As root the namespace is a network namespace alone, so the test keeps root's right to drop to
    /// nobody (Icecast refuses root); otherwise it comes with a user namespace mapping the caller to root.
    public static func run(test: String, timeout: TimeInterval = 300) throws -> ProcessResult {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let setup = """
            set -e
            ip link add \(name) type veth peer name \(name)-peer
            ip addr add 10.77.0.1/24 dev \(name)
            ip link set \(name)-peer up
            ip link set \(name) up
            ip link set lo up
            ip route add default dev \(name)
            exec "$@"
            """
        let namespace = geteuid() == 0 ? ["--net"] : ["--net", "--map-root-user"]
        return try ProcessRunner.run("unshare", namespace + ["--", "sh", "-c", setup, "sh", executable, test],
                                     timeout: timeout, environment: [variable: name])
    }

    /// What a run inside said went wrong: XCTest's error lines, or the end of its output when it has none.
    public static func failures(of result: ProcessResult) -> String {
        let output = result.stdoutText + result.stderrText
        let errors = output.split(separator: "\n").filter { $0.contains(": error: ") }
        return errors.isEmpty ? result.description + "\n" + String(output.suffix(3000)) : errors.joined(separator: "\n")
    }

    /// Whether the run inside ran its one test and the test passed.
    public static func passed(_ result: ProcessResult) -> Bool {
        result.succeeded && result.stdoutText.contains("Executed 1 test, with 0 failures")
    }
}
