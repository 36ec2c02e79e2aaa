import CFuzzDriver
import Foundation

/// Every target by its name: the folder under Targets/ (its seeds are in Corpus/ under the same name).
let targets: [String: onair_fuzz_target] = [
    "catalogue": fuzzCatalogue,
    "dns-srv": fuzzDNSSRV,
    "file-name": fuzzFileName,
    "hls-media": fuzzHLSMedia,
    "http-form": fuzzHTTPForm,
    "http-range": fuzzHTTPRange,
    "http-route": fuzzHTTPRoute,
    "icy": fuzzICY,
    "id3": fuzzID3,
    "mpd": fuzzMPD,
    "network-request": fuzzNetworkRequest,
    "playlist": fuzzPlaylist,
    "podcast-feed": fuzzPodcastFeed,
    "relay-request": fuzzRelayRequest,
    "schedule-rule": fuzzScheduleRule,
    "sink-spec": fuzzSinkSpec,
    "site-policy": fuzzSitePolicy,
    "subsonic-request": fuzzSubsonicRequest,
    "xmltv": fuzzXMLTV,
]

guard CommandLine.arguments.count >= 2, let target = targets[CommandLine.arguments[1]] else {
    let names = targets.keys.sorted().joined(separator: " ")
    FileHandle.standardError.write(Data("usage: onair-fuzz TARGET [libFuzzer options] [CORPUS...]; targets: \(names)\n".utf8))
    exit(64)
}
// libFuzzer reads its options from argv[1...], so the target's name takes the program's place as argv[0].
exit(onair_fuzz_run(CommandLine.argc - 1, CommandLine.unsafeArgv + 1, target))
