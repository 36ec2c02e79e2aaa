import Foundation

/// Where onair keeps its files, after the XDG base directory specification.
///
/// `ONAIR_HOME`, when set, puts everything under one directory (config, data, cache,
/// recordings), which is what tests and portable setups want.
public struct AppPaths: Sendable, Equatable {
    /// Settings and the user's stations.json: `$XDG_CONFIG_HOME/onair`, by default ~/.config/onair.
    public var config: URL
    /// Schedules and the recordings index: `$XDG_DATA_HOME/onair`, by default ~/.local/share/onair.
    public var data: URL
    /// What can be thrown away: `$XDG_CACHE_HOME/onair`, by default ~/.cache/onair.
    public var cache: URL
    /// Recorded episodes: `$XDG_MUSIC_DIR/onair` (from the environment or ~/.config/user-dirs.dirs),
    /// by default ~/Music/onair.
    public var recordings: URL

    /// The user's own catalogue, read after the shipped one.
    public var userCatalogueURL: URL { config.appendingPathComponent("stations.json") }

    public init(config: URL, data: URL, cache: URL, recordings: URL) {
        self.config = config; self.data = data; self.cache = cache; self.recordings = recordings
    }

    /// Paths for the given environment, e.g. `ProcessInfo.processInfo.environment`.
    public init(environment: [String: String]) {
        if let home = environment["ONAIR_HOME"], !home.isEmpty {
            let root = URL(fileURLWithPath: home, isDirectory: true)
            self.init(config: root.appendingPathComponent("config", isDirectory: true),
                      data: root.appendingPathComponent("data", isDirectory: true),
                      cache: root.appendingPathComponent("cache", isDirectory: true),
                      recordings: root.appendingPathComponent("recordings", isDirectory: true))
            return
        }
        let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        // The spec says to ignore a relative or empty value.
        func base(_ variable: String, default relative: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return (userHome as NSString).appendingPathComponent(relative)
        }
        let configHome = base("XDG_CONFIG_HOME", default: ".config")
        let musicDirectory = environment["XDG_MUSIC_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? AppPaths.musicDirectory(userDirsFile: (configHome as NSString).appendingPathComponent("user-dirs.dirs"),
                                       home: userHome)
            ?? (userHome as NSString).appendingPathComponent("Music")
        func onair(_ directory: String) -> URL {
            URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("onair", isDirectory: true)
        }
        self.init(config: onair(configHome),
                  data: onair(base("XDG_DATA_HOME", default: ".local/share")),
                  cache: onair(base("XDG_CACHE_HOME", default: ".cache")),
                  recordings: onair(musicDirectory))
    }

    /// XDG_MUSIC_DIR as xdg-user-dirs writes it (`XDG_MUSIC_DIR="$HOME/Musik"`), so a localized
    /// music folder is found though the variable is rarely exported.
    static func musicDirectory(userDirsFile: String, home: String) -> String? {
        guard let text = try? String(contentsOfFile: userDirsFile, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("XDG_MUSIC_DIR=") else { continue }
            var value = trimmed.dropFirst("XDG_MUSIC_DIR=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            if value.hasPrefix("$HOME") { return home + value.dropFirst("$HOME".count) }
            return value.hasPrefix("/") ? String(value) : nil
        }
        return nil
    }
}
