import Foundation

/// Home Assistant's MQTT discovery for one daemon: the topics its entities read and write, and the retained
/// configurations that make them appear (`<prefix>/<component>/<node>/<object>/config`). One device per daemon;
/// each station it knows (a favourite, or one it has open) has a title, a state and a dead-air sensor, a record switch,
/// and a relay switch per sink declared on the box.
struct Discovery: Sendable {
    let prefix: String
    /// The daemon's name as topics and ids take it.
    let node: String
    let daemonName: String

    init(prefix: String, daemonName: String) {
        self.prefix = prefix
        self.daemonName = daemonName
        node = Discovery.slug(daemonName)
    }

    var base: String { "onair/\(node)" }
    var availability: String { "\(base)/availability" }
    var recordings: String { "\(base)/recordings" }
    var nextEpisode: String { "\(base)/next_episode" }
    var diskFree: String { "\(base)/disk_free" }
    func station(_ slug: String) -> String { "\(base)/station/\(slug)" }
    func title(_ slug: String) -> String { "\(station(slug))/title" }
    func state(_ slug: String) -> String { "\(station(slug))/state" }
    func deadAir(_ slug: String) -> String { "\(station(slug))/dead_air" }
    func listeners(_ slug: String) -> String { "\(station(slug))/listeners" }
    func record(_ slug: String) -> String { "\(station(slug))/record" }
    func relay(_ slug: String, _ sink: String) -> String { "\(station(slug))/relay/\(Discovery.slug(sink))" }
    /// What the switches listen on: `…/record/set` and `…/relay/SINK/set`, payload ON or OFF.
    var commandFilters: [String] { ["\(base)/station/+/record/set", "\(base)/station/+/relay/+/set"] }

    /// What a station's state sensor says.
    static let states = ["playing", "reconnecting", "down", "idle"]

    /// Topic- and id-safe: lower-case letters, digits and `_`, at most 48 characters. A name of letters, digits, spaces,
    /// `-` and `_` keeps its shape ("Test Box": `test_box`); anything else (a URL) also gets a short hash of itself, so two
    /// never share one.
    static func slug(_ text: String) -> String {
        let cleaned = String(text.lowercased().unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
        let plain = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || " -_".unicodeScalars.contains($0) }
        if plain, cleaned.count <= 48, !cleaned.isEmpty { return cleaned }
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(cleaned.prefix(39)) + "_" + String(format: "%08x", hash)
    }

    // MARK: Configurations

    private struct Device: Encodable {
        let identifiers: [String]
        let name: String
        let manufacturer = "onair"
        let model = "onair daemon"
    }

    private struct Entity: Encodable {
        let name: String
        let unique_id: String
        let object_id: String
        let availability_topic: String
        let device: Device
        var state_topic: String?
        var command_topic: String?
        var device_class: String?
        var unit_of_measurement: String?
        var state_class: String?
        var options: [String]?
        var icon: String?
        var payload_on: String?
        var payload_off: String?
    }

    /// (config topic, payload) of the daemon's own sensors.
    func daemonConfigs() -> [(String, String)] {
        [
            config("sensor", "recordings", "Recordings running", state: recordings, stateClass: "measurement", icon: "mdi:record-rec"),
            config("sensor", "next_episode", "Next episode", state: nextEpisode, deviceClass: "timestamp"),
            config("sensor", "disk_free", "Disk free", state: diskFree, deviceClass: "data_size", unit: "B", stateClass: "measurement"),
        ]
    }

    /// (config topic, payload) of one station's entities, with a relay switch per declared sink.
    func stationConfigs(slug: String, name: String, sinks: [String]) -> [(String, String)] {
        var configs = [
            config("sensor", "\(slug)_title", "\(name) title", state: title(slug), icon: "mdi:music"),
            config("sensor", "\(slug)_state", "\(name) state", state: state(slug), deviceClass: "enum", options: Self.states, icon: "mdi:radio"),
            config("binary_sensor", "\(slug)_dead_air", "\(name) dead air", state: deadAir(slug), deviceClass: "problem", on: "ON", off: "OFF"),
            config("sensor", "\(slug)_listeners", "\(name) listeners", state: listeners(slug), stateClass: "measurement",
                   icon: "mdi:account-multiple"),
            config("switch", "\(slug)_record", "\(name) record", state: record(slug), command: "\(record(slug))/set", icon: "mdi:record-rec",
                   on: "ON", off: "OFF"),
        ]
        for sink in sinks {
            configs.append(config("switch", "\(slug)_relay_\(Self.slug(sink))", "\(name) to \(sink)", state: relay(slug, sink),
                                  command: "\(relay(slug, sink))/set", icon: "mdi:speaker", on: "ON", off: "OFF"))
        }
        return configs
    }

    private func config(_ component: String, _ object: String, _ name: String, state: String, command: String? = nil,
                        deviceClass: String? = nil, unit: String? = nil, stateClass: String? = nil, options: [String]? = nil,
                        icon: String? = nil, on: String? = nil, off: String? = nil) -> (String, String) {
        let id = "onair_\(node)_\(object)"
        let entity = Entity(name: name, unique_id: id, object_id: id, availability_topic: availability,
                            device: Device(identifiers: ["onair_\(node)"], name: "onair \(daemonName)"), state_topic: state,
                            command_topic: command, device_class: deviceClass, unit_of_measurement: unit, state_class: stateClass,
                            options: options, icon: icon, payload_on: on, payload_off: off)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = (try? encoder.encode(entity)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ("\(prefix)/\(component)/\(node)/\(object)/config", payload)
    }
}
