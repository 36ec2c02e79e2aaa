import Foundation
import XCTest
@testable import RadioModel

final class ShippedCatalogueLocationTests: XCTestCase {
    private func touch(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: url)
    }

    func testTheEnvironmentOverrides() throws {
        let root = try makeTemporaryDirectory()
        try touch(root.appendingPathComponent("bin/stations.json"))
        let found = Catalogue.shippedCatalogueURL(executableURL: root.appendingPathComponent("bin/onair"),
                                                  environment: ["ONAIR_STATIONS": "/srv/my-stations.json"])
        XCTAssertEqual(found?.path, "/srv/my-stations.json")
    }

    func testABuildDirectoryFindsTheRepositoryFile() throws {
        let repository = try makeTemporaryDirectory()
        try touch(repository.appendingPathComponent("stations.json"))
        let executable = repository.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/onair")

        let found = Catalogue.shippedCatalogueURL(executableURL: executable, environment: [:])

        XCTAssertEqual(found?.path, repository.appendingPathComponent("stations.json").path)
    }

    func testAFileNextToTheExecutableComesFirst() throws {
        let root = try makeTemporaryDirectory()
        try touch(root.appendingPathComponent("stations.json"))
        try touch(root.appendingPathComponent("bin/stations.json"))

        let found = Catalogue.shippedCatalogueURL(executableURL: root.appendingPathComponent("bin/onair"), environment: [:])

        XCTAssertEqual(found?.path, root.appendingPathComponent("bin/stations.json").path)
    }

    func testAnInstallPrefixShareDirectoryIsFound() throws {
        let prefix = try makeTemporaryDirectory()
        try touch(prefix.appendingPathComponent("share/onair/stations.json"))

        let found = Catalogue.shippedCatalogueURL(executableURL: prefix.appendingPathComponent("bin/onair"), environment: [:])

        XCTAssertEqual(found?.path, prefix.appendingPathComponent("share/onair/stations.json").path)
    }

    func testASymlinkedExecutableIsFollowedToItsRealPlace() throws {
        let root = try makeTemporaryDirectory()
        try touch(root.appendingPathComponent("opt/onair/stations.json"))
        try touch(root.appendingPathComponent("opt/onair/onair"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("links"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("links/onair"),
                                                   withDestinationURL: root.appendingPathComponent("opt/onair/onair"))

        let found = Catalogue.shippedCatalogueURL(executableURL: root.appendingPathComponent("links/onair"), environment: [:])

        XCTAssertEqual(found?.resolvingSymlinksInPath().path,
                       root.appendingPathComponent("opt/onair/stations.json").resolvingSymlinksInPath().path)
    }
}
