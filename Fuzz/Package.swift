// swift-tools-version:5.4
// libFuzzer targets for the parsers that read what other machines send (see README.md).
// Kept out of onair's own build: scripts/fuzz builds this package with -sanitize=fuzzer,address,
// which instruments onair's modules too. Every directory in Targets/ is one fuzz target.
// Tools version 5.4 on purpose: from 5.5 on SwiftPM renames an executable's `main`, and libFuzzer
// brings its own.
import Foundation
import PackageDescription

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let targets = (try? FileManager.default.contentsOfDirectory(atPath: here.appendingPathComponent("Targets").path)) ?? []

let package = Package(
    name: "onair-fuzz",
    dependencies: [.package(name: "onair", path: "..")],
    targets: targets.sorted().map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: [.product(name: "OnairParsers", package: "onair")],
                          path: "Targets/\(name)")
    }
)
