import Foundation

/// A certificate authority and a server certificate it signed, made with the openssl command line for
/// a test's own servers (P-256 keys, valid for two days).
public struct TestCertificates: Sendable {
    /// The authority's certificate (PEM): what a client that verifies is told to trust.
    public let authority: URL
    public let certificate: URL
    public let key: URL

    /// Files under `directory`, the server certificate valid for `serverNames` (DNS names or IP addresses).
    public static func make(in directory: URL, serverNames: [String]) throws -> TestCertificates {
        let file = { (name: String) in directory.appendingPathComponent(name) }
        let alternativeNames = serverNames.map { IPv4Address.isLiteral($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        try "subjectAltName=\(alternativeNames)\n".write(to: file("server.ext"), atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for arguments in [
            ["req", "-x509"] + key + ["-keyout", file("ca.key").path, "-out", file("ca.pem").path, "-days", "2", "-subj", "/CN=onair test authority"],
            ["req"] + key + ["-keyout", file("server.key").path, "-out", file("server.csr").path, "-subj", "/CN=\(serverNames.first ?? "localhost")"],
            ["x509", "-req", "-in", file("server.csr").path, "-CA", file("ca.pem").path, "-CAkey", file("ca.key").path, "-CAcreateserial",
             "-out", file("server.pem").path, "-days", "2", "-extfile", file("server.ext").path],
        ] {
            let result = try ProcessRunner.run("/usr/bin/openssl", arguments)
            guard result.succeeded else { throw TestCertificatesError(description: "openssl \(arguments[0]) failed: \(result)") }
        }
        return TestCertificates(authority: file("ca.pem"), certificate: file("server.pem"), key: file("server.key"))
    }
}

private enum IPv4Address {
    static func isLiteral(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }
}

public struct TestCertificatesError: Error, CustomStringConvertible {
    public let description: String
}
