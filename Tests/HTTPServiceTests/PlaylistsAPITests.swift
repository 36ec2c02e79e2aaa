import Foundation
import RadioModel
import Recording
import TestSupport
import XCTest

/// `/api/v1/playlists`, `/api/v1/likes` and `/api/v1/hidden` against a real daemon whose index holds
/// three recorded episodes of a programme: playlists named by the rules of `onair playlists create`, a
/// programme added as its episodes in order, items moved, removed and searched, a hidden episode gone
/// from the playlist, a liked one in "Liked".
final class PlaylistsAPITests: XCTestCase {
    private var harness: APIHarness!

    override func setUpWithError() throws {
        harness = try APIHarness()
    }

    override func tearDown() {
        harness?.stop()
    }

    /// A recorded episode of "Jazz Hour", `daysAgo` days old, in the daemon's index.
    private func addEpisode(daysAgo: Double) throws -> Int64 {
        try harness.addRecording("jazz-\(Int(daysAgo)).mp3", programme: ProgrammeLabel(id: "jazz-hour", name: "Jazz Hour"),
                                 end: Date().addingTimeInterval(-daysAgo * 86_400))
    }

    private func refs(_ reply: APIHarness.Reply) -> [String] {
        (reply.json["entries"] as? [[String: Any]] ?? []).compactMap { entry in
            (entry["item"] as? [String: Any]).map { "\($0["kind"] as? String ?? ""):\($0["ref"] as? String ?? "")" }
        }
    }

    func testPlaylistsAreNamedFilledInOrderEditedSearchedAndLoseHiddenItems() throws {
        let oldest = try addEpisode(daysAgo: 14), middle = try addEpisode(daysAgo: 7), newest = try addEpisode(daysAgo: 0)

        // Names: empty is "New playlist", a name taken (or "Liked") gets a number.
        let created = try harness.request("POST", "/api/v1/playlists", json: ["name": ""])
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.json["name"] as? String, "New playlist")
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists", json: [String: Any]()).json["name"] as? String, "New playlist (2)")
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists", json: ["name": "Liked"]).json["name"] as? String, "Liked (2)")
        let id = try XCTUnwrap(created.json["id"] as? String)
        let playlists = try harness.get("/api/v1/playlists").json["playlists"] as? [[String: Any]]
        XCTAssertEqual(playlists?.compactMap { $0["name"] as? String }, ["Liked", "New playlist", "New playlist (2)", "Liked (2)"])
        XCTAssertEqual(playlists?.first?["system"] as? Bool, true)

        // A programme is its recorded episodes, oldest first; then a station.
        let added = try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["programme:jazz-hour", "station:tone"]])
        XCTAssertEqual(added.status, 200, added.text)
        XCTAssertEqual(refs(try harness.get("/api/v1/playlists/\(id)")),
                       ["recording:\(oldest)", "recording:\(middle)", "recording:\(newest)", "station:tone"])

        // Moved, removed, renamed.
        let moved = try harness.request("POST", "/api/v1/playlists/\(id)/items/4/move", json: ["to": 1])
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual(refs(moved), ["station:tone", "recording:\(oldest)", "recording:\(middle)", "recording:\(newest)"])
        XCTAssertEqual(refs(try harness.request("DELETE", "/api/v1/playlists/\(id)/items/1")),
                       ["recording:\(oldest)", "recording:\(middle)", "recording:\(newest)"])
        let renamed = try harness.request("PATCH", "/api/v1/playlists/\(id)", json: ["name": "Sunday jazz"])
        XCTAssertEqual(renamed.json["name"] as? String, "Sunday jazz", renamed.text)
        XCTAssertEqual(try harness.request("PATCH", "/api/v1/playlists/\(id)", json: ["name": "Liked (2)"]).json["name"] as? String,
                       "Liked (2) (2)", "a name another playlist has gets a number")
        _ = try harness.request("PATCH", "/api/v1/playlists/\(id)", json: ["name": "Sunday jazz"])

        // Search finds the playlist by name and its items by title.
        let found = try harness.get("/api/v1/playlists/search?q=sunday")
        XCTAssertEqual((found.json["playlists"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["Sunday jazz"])
        XCTAssertEqual((try harness.get("/api/v1/playlists/search?q=jazz%20hour").json["items"] as? [Any])?.count, 3)

        // Hidden: gone from the playlist, and not added again; shown again: it can be added.
        let hidden = try harness.request("POST", "/api/v1/hidden", json: ["item": "recording:\(middle)"])
        XCTAssertEqual(hidden.status, 200, hidden.text)
        XCTAssertEqual(hidden.json["changed"] as? Bool, true)
        XCTAssertEqual(refs(try harness.get("/api/v1/playlists/\(id)")), ["recording:\(oldest)", "recording:\(newest)"])
        let again = try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["programme:jazz-hour"]])
        XCTAssertEqual(again.json["hiddenLeftOut"] as? Int, 0, "the programme's episodes come without the hidden one")
        XCTAssertEqual((again.json["added"] as? [Any])?.count, 2)
        let named = try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["recording:\(middle)"]])
        XCTAssertEqual(named.json["hiddenLeftOut"] as? Int, 1, named.text)
        XCTAssertEqual((try harness.get("/api/v1/hidden").json["items"] as? [[String: Any]])?.compactMap { $0["ref"] as? String }, ["\(middle)"])
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/hidden?item=recording:\(middle)").json["changed"] as? Bool, true)
        XCTAssertEqual((try harness.get("/api/v1/hidden").json["items"] as? [Any])?.count, 0)

        // Liked: the system playlist, in the order liked; unliked: gone from it.
        XCTAssertEqual(try harness.request("POST", "/api/v1/likes", json: ["item": "recording:\(newest)"]).json["liked"] as? Bool, true)
        XCTAssertEqual(try harness.request("POST", "/api/v1/likes", json: ["item": "station:tone"]).json["changed"] as? Bool, true)
        XCTAssertEqual(try harness.request("POST", "/api/v1/likes", json: ["item": "station:tone"]).json["changed"] as? Bool, false)
        let streamURL = "http://127.0.0.1:9/stream.mp3"
        let likedURL = try harness.request("POST", "/api/v1/likes", json: ["item": "station:\(streamURL)"])
        XCTAssertEqual((likedURL.json["item"] as? [String: Any])?["ref"] as? String, streamURL, "a station by its stream URL")
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/likes?item=station:\(streamURL)").json["changed"] as? Bool, true)
        XCTAssertEqual(refs(try harness.get("/api/v1/playlists/liked")), ["recording:\(newest)", "station:tone"])
        XCTAssertEqual((try harness.get("/api/v1/playlists").json["playlists"] as? [[String: Any]])?.first?["items"] as? Int, 2)
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/likes?item=station:tone").json["liked"] as? Bool, false)
        XCTAssertEqual(refs(try harness.get("/api/v1/playlists/liked")), ["recording:\(newest)"])

        // Bad input: a 4xx saying why.
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["recording:999"]]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["file:/etc/passwd"]]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/\(id)/items", json: ["items": ["jazz-hour"]]).status, 422)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/999/items", json: ["items": ["station:tone"]]).status, 404)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/\(id)/items/9/move", json: ["to": 1]).status, 404)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists/\(id)/items/1/move", json: ["to": 9]).status, 422)
        XCTAssertEqual(try harness.request("DELETE", "/api/v1/playlists/\(id)/items/9").status, 404)
        XCTAssertEqual(try harness.request("POST", "/api/v1/playlists", json: ["name": 5]).status, 400)
        XCTAssertEqual(try harness.get("/api/v1/playlists/search").status, 400)
        XCTAssertEqual(try harness.request("POST", "/api/v1/likes", json: ["item": "nothing:1"]).status, 422)
        let notThere = try harness.request("DELETE", "/api/v1/playlists/liked")
        XCTAssertEqual(notThere.status, 405, "Liked changes by liking")
        XCTAssertEqual(notThere.header("Allow"), "GET")

        XCTAssertEqual(try harness.request("DELETE", "/api/v1/playlists/\(id)").status, 200)
        XCTAssertEqual(try harness.get("/api/v1/playlists/\(id)").status, 404)
    }
}
