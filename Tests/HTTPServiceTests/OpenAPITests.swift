import APIContract
import Foundation
import HTTPService
import TestSupport
import XCTest

/// The OpenAPI document against the served API: it is what the contract (openapi.yaml) makes, every route
/// is in it and nothing else, it is valid OpenAPI 3.1 (openapi-spec-validator), and schemathesis, generating
/// requests from it against the running daemon, finds no failure. Its tools are installed by scripts/setup:
/// a missing one fails, never skips.
final class OpenAPITests: XCTestCase {
    private var harness: APIHarness!

    override func setUpWithError() throws {
        harness = try APIHarness()
    }

    override func tearDown() {
        harness?.stop()
    }

    func testEveryRouteIsDocumentedAndEveryDocumentedOperationIsServed() throws {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        let operations = HTTPServer.apiOperations(facade: harness.facade)
        let served = Set(operations.map { "\($0.method.rawValue) \($0.path)" })
        XCTAssertEqual(served.count, operations.count, "an operation both hand-written and generated: one would replace the other")
        XCTAssertEqual(served.subtracting(documented).sorted(), [], "served but not documented")
        XCTAssertEqual(documented.subtracting(served).sorted(), [], "documented but not served")
        let fetched = try harness.get("/api/openapi.json")
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.body, OpenAPIDocument.data, "the document served is the one in the repository")
    }

    func testTheDocumentIsValidOpenAPI31() throws {
        let script = """
        import json, sys
        from openapi_spec_validator import validate
        document = json.load(sys.stdin)
        assert document["openapi"].startswith("3.1"), document["openapi"]
        validate(document)
        """
        let result = try ProcessRunner.run("python3", ["-c", script], input: OpenAPIDocument.data)
        XCTAssertTrue(result.succeeded, result.stderrText + (result.stderrText.contains("No module named") ? " (run scripts/setup)" : ""))
    }

    /// The served document is what the contract, openapi.yaml, makes: nobody edits the embedded copy by hand,
    /// and nobody forgets to embed an edit of the contract.
    func testTheEmbeddedDocumentIsWhatTheContractMakes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let made = harness.home.file("OpenAPIDocument.swift")
        let result = try ProcessRunner.run("python3", [root.appendingPathComponent("scripts/openapi/embed").path, "--output", made.path])
        XCTAssertTrue(result.succeeded, result.stderrText + " (scripts/setup installs PyYAML)")
        let fresh = Array(try String(contentsOf: made, encoding: .utf8))
        let committed = Array(try String(contentsOf: root.appendingPathComponent("Sources/APIContract/OpenAPIDocument.swift"), encoding: .utf8))
        let differing = (0..<max(fresh.count, committed.count)).first { $0 >= fresh.count || $0 >= committed.count || fresh[$0] != committed[$0] }
        let around = differing.map { String(fresh[max(0, $0 - 60)..<min(fresh.count, $0 + 60)]) } ?? ""
        XCTAssertNil(differing, "OpenAPIDocument.swift is not what scripts/openapi/embed makes of openapi.yaml (run it); it would say: …\(around)…")
    }

    func testSchemathesisFindsNoFailureAgainstTheDocument() throws {
        _ = try XCTUnwrap(ProcessRunner.which("schemathesis"), "schemathesis is not installed: run scripts/setup")
        // The event stream never ends, which schemathesis cannot wait for (APITests covers it). Every
        // check runs but "positive data acceptance", which expects any body the schema allows to be
        // accepted: a job or rule names a station that must be in the catalogue and a time that must
        // parse, which no JSON Schema can list; such bodies get 422, as documented.
        let result = try ProcessRunner.run("schemathesis", [
            "run", harness.url("/api/openapi.json").absoluteString, "--checks", "all", "--exclude-checks", "positive_data_acceptance",
            "--max-examples", "30", "--exclude-path", "/api/v1/events", "--generation-deterministic", "--no-color",
        ], timeout: 600, currentDirectory: harness.home.url)
        XCTAssertTrue(result.succeeded, result.stdoutText.suffix(6000) + result.stderrText)
    }
}
