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

    /// The generated glue's own refusals come out as onair's: JSON errors a person can act on, with the status
    /// the hand-written routes gave (its defaults would be a bare 500, a 406 for EventSource's Accept, a 400
    /// naming a Swift type, a body of any size or without Content-Type taken as JSON).
    func testTheGeneratedOperationsRefuseAsOnairDoes() throws {
        let cases: [(reply: APIHarness.Reply, status: Int, error: String)] = [
            (try harness.get("/api/v1/jobs/0012"), 404, "no such item: ids are positive numbers"),
            (try harness.get("/api/v1/schedule/rules/abc"), 404, "no such item: ids are positive numbers"),
            (try harness.get("/api/v1/schedule/next?count=abc"), 400, "count must be a whole number, not \"abc\""),
            (try harness.get("/api/v1/schedule/next?count=0"), 400, "count must be a number from 1 to 1000"),
            (try harness.request("POST", "/api/v1/playlists", body: Data("{}".utf8), headers: ["Content-Type": "text/plain"]), 415,
             "the body must be JSON, sent with Content-Type: application/json (not text/plain)"),
            (try harness.request("POST", "/api/v1/schedule/rules", json: ["station": "tone", "at": "10:00", "duration": "1m", "format": "wma"]), 400,
             "\"format\" is not one of the values the API documents for it (/api/openapi.json)"),
            (try harness.request("POST", "/api/v1/stations", json: ["id": "x"]), 400, "the body needs \"name\""),
            (try harness.request("POST", "/api/v1/playlists", body: Data(repeating: 0x20, count: 2 << 20)), 413, "the body is larger than the API takes (1 MiB)"),
            (try harness.request("GET", "/api/v1/jobs/9", headers: ["Accept": "text/event-stream"]), 404, "no job 9"),
        ]
        for (reply, status, error) in cases {
            XCTAssertEqual(reply.status, status, reply.text)
            XCTAssertEqual(reply.json["error"] as? String, error)
            XCTAssertEqual(reply.header("Content-Type"), "application/json; charset=utf-8")
            XCTAssertEqual(reply.header("Cache-Control"), "no-store")
        }
        let wrongMethod = try harness.request("PUT", "/api/v1/jobs")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.header("Allow"), "GET, POST", "the generated operations are among those a path takes")
        XCTAssertEqual(try harness.get("/api/v1/jobs").header("Cache-Control"), "no-store", "an answer about the box now is never cached")
        // What the hand-written routes took, the generated ones take too: a key without a value, JSON as application/…+json.
        XCTAssertEqual(try harness.get("/api/v1/schedule/next?count=5&flag&&").status, 200)
        let suffixed = try harness.request("POST", "/api/v1/playlists", body: Data(#"{"name":"Suffixed"}"#.utf8),
                                           headers: ["Content-Type": "application/vnd.onair+json"])
        XCTAssertEqual(suffixed.status, 201, suffixed.text)
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
