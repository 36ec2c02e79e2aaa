// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "onair",
    products: [
        .executable(name: "onair", targets: ["onair"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C interop lives only in these shims.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev", "libavdevice-dev", "libavfilter-dev"])]),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .systemLibrary(name: "CChromaprint", pkgConfig: "libchromaprint", providers: [.apt(["libchromaprint-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // sd-bus (libsystemd-dev): the MPRIS object's vtable and sd-bus's variadic calls.
        .target(name: "CSystemdBus", linkerSettings: [.linkedLibrary("systemd")]),

        // Pure Swift model: stations, streams, programmes, the catalogue; and what every module shares:
        // timestamps, onair's JSON, the `Locked` box.
        .target(name: "RadioModel"),
        // Network side: transfer engine, ICY, HLS, playlist resolution, directory search.
        // (CFFmpeg only for libavutil's AES, which decrypts HLS segments.)
        .target(name: "StreamInput", dependencies: [
            "CCurl", "CFFmpeg", "RadioModel", "XMLInput",
        ]),
        // FFmpeg side: AVIO bridge, demux, decode, resample, PCM fan-out.
        // (libavdevice and libavfilter are loaded on demand, not linked: Media/FFmpeg/OnDemandLibraries.swift.)
        .target(name: "Media", dependencies: [
            "CFFmpeg", "RadioModel", "StreamInput",
        ]),
        // Known audio found by its sound: Chromaprint fingerprints of decoded PCM, the clips' index, the matcher.
        .target(name: "ClipDetection", dependencies: [
            "CChromaprint", "Media", "RadioModel", "SharedStore", "Store", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // PCM sinks (files, FIFOs, TCP, audio devices through libavdevice), the Icecast push, the encoded
        // broadcasts a relay's listeners read: no server framework.
        .target(name: "Outputs", dependencies: ["CFFmpeg", "Media", "RadioModel", "StreamInput"]),
        // Our HTTP servers' plumbing on Hummingbird: the request-head bounds and per-client connection limits
        // every server of onair answers behind (the daemon's, the relay's), HTTP/1.0 answered as 1.0.
        .target(name: "HTTPServing", dependencies: [
            "RadioModel", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The HTTP relay sink (`http://ADDR:PORT/PATH`): mounts, their listeners and the servers they are served on.
        .target(name: "HTTPRelay", dependencies: [
            "HTTPServing", "Media", "Outputs", "RadioModel", "StreamInput", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"), .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        ]),
        // A sink string made into its consumer: Outputs' sinks and the HTTP relay.
        .target(name: "Sinks", dependencies: ["HTTPRelay", "Media", "Outputs", "RadioModel", "StreamInput"]),
        // The embedded SQLite database every stateful module keeps its tables in.
        .target(name: "Store", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // PostgreSQL, the shared store several daemons use instead of each one's SQLite file: the connection
        // (postgres-nio, bridged for the synchronous stores on an event-loop thread of its own) and its migrations.
        .target(name: "SharedStore", dependencies: [
            "RadioModel", "Store", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // Recording episodes: partial files and their journals, finalising, naming, track splitting, the index.
        .target(name: "Recording", dependencies: [
            "Media", "RadioModel", "StreamInput", "Store", "SharedStore", "XMLInput", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // Foundation's XMLParser behind the checks that keep its Linux crashes out, for XML from outside; and
        // the escaping of text in the XML onair writes.
        .target(name: "XMLInput", dependencies: ["RadioModel"]),
        // Programme guides: the XMLTV reader, the guide's tables, fetching and refreshing guides, and which
        // broadcasts a rule's title pattern or series picks. (swift-nio-extras' decompressor, zlib, reads guides
        // published gzip-compressed.)
        .target(name: "Guide", dependencies: [
            "RadioModel", "StreamInput", "Store", "XMLInput", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // Scheduled recording: rules and their expansion in time zones, the schedule's tables, the daemon loop
        // and its control channel.
        .target(name: "Scheduling", dependencies: [
            "Guide", "RadioModel", "Recording", "Store", "SharedStore", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // The player on the desktop's session bus (MPRIS2): media keys, widgets, playerctl.
        .target(name: "MPRIS", dependencies: ["CSystemdBus", "RadioModel"]),
        // The player: volume, pause and time-shift, sleep timer, queue, the terminal view and keys,
        // favourites, history and resume positions; the desktop's media keys through MPRIS.
        .target(name: "Playback", dependencies: [
            "Media", "MPRIS", "Outputs", "RadioModel", "StreamInput", "Store", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Podcasts: RSS/Atom feeds, followed with conditional requests; episodes downloaded to play.
        .target(name: "Podcasts", dependencies: [
            "RadioModel", "StreamInput", "Store", "XMLInput", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The listener's library: playlists, likes and hidden items, and what a named item plays as.
        .target(name: "Library", dependencies: [
            "Media", "Podcasts", "RadioModel", "Recording", "Store", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Casting to network speakers: UPnP/DLNA MediaRenderers found by SSDP (a SwiftNIO datagram channel) and
        // driven over SOAP (AVTransport, RenderingControl) through StreamInput's transfer engine.
        .target(name: "Casting", dependencies: [
            "RadioModel", "StreamInput", "XMLInput", .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // What an operator watches: dead-air and down alerts judged from each station's meter, sent to a
        // webhook or a command, and the Prometheus metrics of stations and the daemon.
        .target(name: "Monitoring", dependencies: [
            "Media", "RadioModel", "StreamInput", .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // The engine: stations run as jobs (listen, record, relay, scheduled episodes), one upstream
        // connection per station shared by all its jobs; the daemon's runtime jobs and its control protocol.
        .target(name: "Engine", dependencies: [
            "Sinks",
            "RadioModel", "StreamInput", "Media", "MPRIS", "Outputs", "Recording", "Store", "SharedStore", "Scheduling", "Playback", "Guide",
            "Monitoring", "Library",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // What `onair daemon` runs: the service (episodes, runtime jobs, guides, alerts, metrics on one connection
        // per station), its typed events and the facade its transports (HTTP API, pages, feeds) use.
        .target(name: "Daemon", dependencies: [
            "ClipDetection", "Engine", "Guide", "Library", "Monitoring", "Podcasts", "RadioModel", "Recording", "Scheduling", "Scrobbling", "SharedStore", "Store",
            "StreamInput", "Outputs", .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Scrobbling: listens sent to ListenBrainz (or a server speaking its API) from a queue kept on disk.
        .target(name: "Scrobbling", dependencies: ["Media", "RadioModel", "Store", "StreamInput", .product(name: "GRDB", package: "GRDB.swift")]),
        // An MQTT client: libmosquitto (CMosquitto) behind a typed wrapper.
        .target(name: "MQTT", dependencies: ["CMosquitto", "RadioModel"]),
        // The daemon in Home Assistant over MQTT: discovery, states from the daemon's events, the switches' commands.
        .target(name: "HomeAssistant", dependencies: ["Daemon", "Engine", "MQTT", "RadioModel", "Scheduling", "StreamInput"]),
        // Artwork the box serves from its own origin: stations' logos fetched once, checked to be raster images, kept on disk.
        .target(name: "Artwork", dependencies: ["RadioModel", "StreamInput", .product(name: "Crypto", package: "swift-crypto")]),
        // The Subsonic API's side that knows no HTTP: its answers (one tree written as XML or JSON), its ids and
        // credentials, and its endpoints over the daemon's stores (stations as artists, programmes as albums).
        .target(name: "Subsonic", dependencies: [
            "Artwork", "Daemon", "Library", "Podcasts", "RadioModel", "Recording", "Scrobbling", "XMLInput", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The web app: the pages a person uses from a phone or a laptop (Mustache templates, a small script and
        // stylesheet, all compiled in) — stations, schedule, guide, recordings, podcasts, playlists, status — as
        // routes added to the daemon's HTTP router.
        .target(name: "WebApp", dependencies: [
            "Artwork", "ClipDetection", "Daemon", "Media", "Scrobbling",
            "HTTPServing",
            "RadioModel", "StreamInput", "Outputs", "Recording", "Scheduling", "Guide", "Engine", "Podcasts", "Library", "Store",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Mustache", package: "swift-mustache"),
        ]),
        // The daemon's one HTTP server (Hummingbird): the API under /api/v1 and its OpenAPI document, the
        // podcast feeds and downloads of recordings, the live station mounts, /metrics, and the route groups of the pages.
        // The API's contract, openapi.yaml: the types and server glue generated from it at build time, and the
        // document itself as served.
        // Its code is generated, so its warnings are the generator's: 1.14.3 imports Foundation publicly in files that
        // do not need it, silenced only for compilers from 6.4.
        .target(name: "APIContract", dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
                swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
                plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        .target(name: "HTTPService", dependencies: [
            "ClipDetection", "Daemon", "APIContract",
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            "HTTPServing", "HTTPRelay",
            "RadioModel", "StreamInput", "Media", "Outputs", "Recording", "Store", "Scheduling", "Engine", "Guide", "XMLInput",
            "Library", "Podcasts", "Subsonic",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The CLI's commands: argument parsing, printing and exit codes over the libraries above.
        .target(name: "OnairCommands", dependencies: [
            "Daemon", "ClipDetection",
            "Sinks",
            "RadioModel", "StreamInput", "Media", "MPRIS", "Outputs", "Recording", "Store", "SharedStore", "Scheduling", "Playback", "Engine", "Guide",
            "Library", "Podcasts", "Monitoring", "HTTPService", "WebApp", "Casting", "HomeAssistant", "MQTT", "Scrobbling",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The executable: runs the root command and nothing else. A release build links the Swift runtime and
        // Foundation statically (15 fewer libraries to map and resolve: 7–10 MiB less RSS for one station's relay
        // and a quarter fewer instructions to start, see BENCHMARKS.md), with lld's packed relative relocations
        // (DT_RELR: 50 KB of relocations instead of 3.5 MB read at each start), and exports none of its own
        // symbols (-static-stdlib's -export-dynamic would put ~53,000 in the dynamic table, paged in as every
        // library's symbol lookups pass through it; the dlopen'd libavdevice and libavfilter need none of them).
        // Debug builds, which the tests use, stay dynamic and quick to link.
        .executableTarget(name: "onair", dependencies: ["OnairCommands"], exclude: ["exports.map"], linkerSettings: [
            // Foundation's static archives are named here because the modules were compiled against the shared
            // Foundation, whose autolink entries do not list them (`--static-swift-stdlib` on the command line would
            // instead recompile every module, and the guard's and the tests' builds would then rebuild everything).
            .unsafeFlags(["-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCollections", "-l_FoundationCShims",
                          "-l_CFXMLInterface", "-lxml2",
                          "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                          "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/onair/exports.map"],
                         .when(configuration: .release)),
        ]),
        // The hot paths alone (ICY de-interleaving and the byte queue; decode and resample), for the
        // instruction-count guard in CI (scripts/bench/guard). Not a user command.
        .executableTarget(name: "onair-hotpaths", dependencies: ["Media", "RadioModel", "StreamInput"]),
        // Clip detection as the daemon runs it, for scripts/bench/clip_cost.py. Not a user command.
        .executableTarget(name: "onair-clip-cost", dependencies: ["ClipDetection", "Media", "RadioModel", "Store"]),
        // The libFuzzer targets for every parser of outside input (Fuzz/README.md). Built in every build;
        // only the AddressSanitizer build scripts/sanitize makes links libFuzzer, and scripts/fuzz runs that one.
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "onair-fuzz", dependencies: [
            "HTTPServing",
            "CFuzzDriver", "RadioModel", "StreamInput", "Outputs", "Recording", "Scheduling", "Guide", "Podcasts", "HTTPService", "Subsonic",
        ], path: "Fuzz", exclude: ["Corpus", "README.md", "lsan-suppressions.txt"]),

        // Fixture servers and helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RadioModelTests", dependencies: ["RadioModel"]),
        .testTarget(name: "StreamInputTests", dependencies: ["StreamInput", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ClipDetectionTests", dependencies: ["ClipDetection", "RadioModel", "SharedStore", "Store", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Sinks", "Media", "Outputs", "StreamInput", "TestSupport"]),
        .testTarget(name: "OutputsTests", dependencies: ["HTTPServing", "HTTPRelay", "Sinks", "Outputs", "Media", "RadioModel", "StreamInput", "TestSupport"]),
        .testTarget(name: "OnairCLITests", dependencies: ["TestSupport"], exclude: ["Subsonic"]),
        .testTarget(name: "OnairCommandsTests", dependencies: [
            "Daemon", "ClipDetection",
            "OnairCommands", "Library", "Recording", "Store", "TestSupport", "Casting", "Engine", "HTTPService", "RadioModel",
            "SharedStore", "StreamInput",
        ]),
        .testTarget(name: "SchedulingTests", dependencies: ["Scheduling", "Recording", "Store", "SharedStore", "RadioModel", "TestSupport"]),
        .testTarget(name: "SharedStoreTests", dependencies: ["RadioModel", "SharedStore", "Store", "TestSupport"]),
        .testTarget(name: "PodcastsTests", dependencies: ["Podcasts"]),
        .testTarget(name: "CastingTests", dependencies: ["Casting", "TestSupport"]),
        .testTarget(name: "GuideTests", dependencies: ["Guide", "RadioModel", "Store", "StreamInput", "TestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Sinks", "Playback", "Library", "Media", "Outputs", "RadioModel", "Store", "TestSupport"]),
        .testTarget(name: "EngineTests", dependencies: [
            "ClipDetection", "Daemon",
            "Sinks",
            "Engine", "Monitoring", "Scheduling", "Recording", "Outputs", "Media", "RadioModel", "SharedStore", "StreamInput", "Store",
            "TestSupport",
        ]),
        .testTarget(name: "WebAppTests", dependencies: [
            "ClipDetection", "Daemon",
            "HTTPServing",
            "WebApp", "HTTPService", "Outputs", "Engine", "Scheduling", "Recording", "Guide", "Podcasts", "Library", "Playback", "RadioModel",
            "SharedStore", "Store", "TestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "GRDB", package: "GRDB.swift"),
        ], exclude: ["Browser"]),
        .testTarget(name: "HTTPServiceTests", dependencies: [
            "ClipDetection", "Daemon",
            "HTTPServing",
            "HTTPService", "Engine", "Outputs", "RadioModel", "Recording", "Scheduling", "SharedStore", "StreamInput", "TestSupport", "Library", "Store",
        ]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "SharedStore", "Store", "Media", "RadioModel", "StreamInput", "TestSupport"]),
    ]
)
