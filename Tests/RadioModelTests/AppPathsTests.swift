import Foundation
import XCTest
@testable import RadioModel

final class AppPathsTests: XCTestCase {
    func testOnairHomeHoldsEverything() {
        let paths = AppPaths(environment: ["ONAIR_HOME": "/tmp/oh", "HOME": "/home/u", "XDG_CONFIG_HOME": "/x/config",
                                           "XDG_MUSIC_DIR": "/x/music"])
        XCTAssertEqual(paths.config.path, "/tmp/oh/config")
        XCTAssertEqual(paths.data.path, "/tmp/oh/data")
        XCTAssertEqual(paths.cache.path, "/tmp/oh/cache")
        XCTAssertEqual(paths.recordings.path, "/tmp/oh/recordings")
        XCTAssertEqual(paths.userCatalogueURL.path, "/tmp/oh/config/stations.json")
    }

    func testDefaultsFollowTheXDGSpecification() {
        let paths = AppPaths(environment: ["HOME": "/home/nobody-\(UUID().uuidString)"])
        let home = paths.config.deletingLastPathComponent().deletingLastPathComponent().path
        XCTAssertEqual(paths.config.path, home + "/.config/onair")
        XCTAssertEqual(paths.data.path, home + "/.local/share/onair")
        XCTAssertEqual(paths.cache.path, home + "/.cache/onair")
        XCTAssertEqual(paths.recordings.path, home + "/Music/onair")
        XCTAssertEqual(paths.userCatalogueURL.path, home + "/.config/onair/stations.json")
    }

    func testXDGVariablesWinAndRelativeOnesAreIgnored() {
        let paths = AppPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/etc/u", "XDG_DATA_HOME": "relative/data",
                                           "XDG_CACHE_HOME": "/var/cache/u", "XDG_MUSIC_DIR": "/media/music", "ONAIR_HOME": ""])
        XCTAssertEqual(paths.config.path, "/etc/u/onair")
        XCTAssertEqual(paths.data.path, "/home/u/.local/share/onair")
        XCTAssertEqual(paths.cache.path, "/var/cache/u/onair")
        XCTAssertEqual(paths.recordings.path, "/media/music/onair")
    }

    func testTheMusicFolderComesFromUserDirsWhenNotExported() throws {
        let config = try makeTemporaryDirectory()
        try """
        # This file is written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Schreibtisch"
        XDG_MUSIC_DIR="$HOME/Musik"
        """.write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)

        let paths = AppPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": config.path])

        XCTAssertEqual(paths.recordings.path, "/home/u/Musik/onair")
    }
}
