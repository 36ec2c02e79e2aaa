import Foundation
import SharedStore
import Store
import TestSupport
import XCTest

/// TLS to PostgreSQL as libpq's `sslmode` says, against a real PostgreSQL 15 with `ssl = on` and a
/// certificate for `localhost` made with openssl: which modes encrypt (the server's own `pg_stat_ssl`
/// says), and which refuse, in one line, a server they cannot verify.
final class SharedDatabaseTLSTests: XCTestCase {
    private var server: PostgresHarness!

    override func setUpWithError() throws {
        do {
            server = try PostgresHarness(tls: true)
        } catch PostgresHarnessError.notInstalled(let what) {
            throw XCTSkip("\(PostgresHarnessError.notInstalled(what))")
        }
    }

    private func database(_ host: String, _ parameters: String = "") throws -> SharedDatabase {
        try SharedDatabase(location: try PostgresLocation(url: "postgresql://onair@\(host):\(server.port)/onair" + parameters), timeout: 10)
    }

    private func encrypted(_ database: SharedDatabase) throws -> Bool {
        try XCTUnwrap(try database.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first).decode(Bool.self)
    }

    func testEachModeEncryptsOrNotAsLibpqWould() throws {
        let authority = try XCTUnwrap(server.certificates).authority.path
        XCTAssertTrue(try encrypted(database("127.0.0.1")), "no sslmode is libpq's prefer: encrypted when the server offers TLS")
        XCTAssertTrue(try encrypted(database("127.0.0.1", "?sslmode=require")))
        XCTAssertTrue(try encrypted(database("127.0.0.1", "?sslmode=verify-ca&sslrootcert=\(authority)")), "verify-ca checks no name")
        XCTAssertTrue(try encrypted(database("localhost", "?sslmode=verify-full&sslrootcert=\(authority)")))
        XCTAssertFalse(try encrypted(database("127.0.0.1", "?sslmode=disable")))
    }

    func testTheVerifyingModesRefuseAServerTheyCannotVerifyInOneLine() throws {
        let authority = try XCTUnwrap(server.certificates).authority.path
        let elsewhere = try TemporaryDirectory(prefix: "onair-other-authority")
        let stranger = try TestCertificates.make(in: elsewhere.url, serverNames: ["localhost"]).authority.path
        for (host, parameters, told) in [
            ("localhost", "verify-full&sslrootcert=\(stranger)", "the server's certificate is not signed by an authority in \(stranger)"),
            ("localhost", "verify-ca&sslrootcert=\(stranger)", "the server's certificate is not signed by an authority in \(stranger)"),
            ("127.0.0.1", "verify-full&sslrootcert=\(authority)", "the server's certificate is not for 127.0.0.1"),
        ] {
            XCTAssertThrowsError(try database(host, "?sslmode=" + parameters), told) { error in
                let mode = parameters.prefix { $0 != "&" }
                XCTAssertEqual("\(error)", "database postgresql://onair@\(host):\(server.port)/onair?sslmode=\(mode): \(told)")
            }
        }
    }

    func testRequireRefusesAServerWithoutTLS() throws {
        let plain = try PostgresHarness.shared.get()
        XCTAssertThrowsError(try SharedDatabase(location: try PostgresLocation(url: plain.url + "?sslmode=require"), timeout: 10)) { error in
            XCTAssertEqual("\(error)", "database postgresql://onair@127.0.0.1:\(plain.port)/onair?sslmode=require: the server does not offer TLS")
        }
        XCTAssertNoThrow(try SharedDatabase(location: try PostgresLocation(url: plain.url), timeout: 10), "prefer goes on without it")
    }

    func testAnUnknownModeParameterOrRootFileIsOneLine() throws {
        XCTAssertThrowsError(try PostgresLocation(url: "postgresql://onair@db.example/onair?sslmode=verify")) { error in
            XCTAssertEqual("\(error)", "invalid sslmode 'verify' in the database URL: use one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        XCTAssertThrowsError(try PostgresLocation(url: "postgresql://onair@db.example/onair?ssl=true")) { error in
            XCTAssertEqual("\(error)", "the database URL's parameter 'ssl' is not one onair reads: sslmode and sslrootcert are")
        }
        XCTAssertThrowsError(try database("localhost", "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")) { error in
            XCTAssertTrue("\(error)".contains("cannot use sslrootcert '/nonexistent/ca.pem'"), "\(error)")
        }
    }
}
