// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "onair",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "onair", targets: ["onair"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C interop lives only in these two shims.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])]),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),

        // Pure Swift model: stations, streams, programmes, the catalogue.
        .target(name: "RadioModel"),
        // Network side: transfer engine, ICY, playlist resolution, directory search.
        .target(name: "StreamInput", dependencies: [
            "CCurl", "RadioModel", .product(name: "Logging", package: "swift-log"),
        ]),
        // FFmpeg side: AVIO bridge, demux, decode, resample, PCM fan-out.
        .target(name: "Media", dependencies: [
            "CFFmpeg", "RadioModel", "StreamInput", .product(name: "Logging", package: "swift-log"),
        ]),
        // PCM sinks.
        .target(name: "Outputs", dependencies: [
            "Media", "RadioModel", .product(name: "Logging", package: "swift-log"),
        ]),
        // The CLI: composition root.
        .executableTarget(name: "onair", dependencies: [
            "RadioModel", "StreamInput", "Media", "Outputs",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Fixture servers and helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RadioModelTests", dependencies: ["RadioModel"]),
        .testTarget(name: "StreamInputTests", dependencies: ["StreamInput", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "Outputs", "StreamInput", "TestSupport"]),
        .testTarget(name: "OutputsTests", dependencies: ["Outputs", "Media", "RadioModel", "TestSupport"]),
        .testTarget(name: "OnairCLITests", dependencies: ["TestSupport"]),
    ]
)
