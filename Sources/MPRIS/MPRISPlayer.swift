import CSystemdBus
import Foundation
import RadioModel
#if canImport(Glibc)
import Glibc
#endif

/// onair as an MPRIS2 player on the desktop's session bus (org.mpris.MediaPlayer2 and its Player), so
/// media keys, desktop widgets and `playerctl` show and control it. The bus connection lives on a thread
/// of its own; the player is asked for its state there — after every command, and twice a second so that
/// changes made elsewhere (a new title, a key, the queue) reach the desktop — and changed properties
/// are signalled.
public final class MPRISPlayer: @unchecked Sendable {  // `bus`, `published`, `track` on the bus thread only; `stopping` in `Locked`
    /// How often the player's state is compared with what the desktop was told.
    private static let checkInterval: UInt64 = 500_000  // µs

    private let identity: String
    private let state: @Sendable () -> MediaPlayerState
    private let perform: @Sendable (MediaPlayerCommand) -> Void
    private let wake: WakeDescriptor
    private let stopping = Locked(false)
    private let ended = DispatchSemaphore(value: 0)
    private var bus: OpaquePointer?
    private var published: MediaPlayerState?
    private var track = 0
    private var publishedAt = Date()

    /// Whether a session bus is configured (DBUS_SESSION_BUS_ADDRESS, or the runtime directory's `bus`):
    /// without one there is nothing to connect to and the player runs as it always did.
    public static var sessionBusConfigured: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"] else { return false }
        return FileManager.default.fileExists(atPath: runtime + "/bus")
    }

    private init(identity: String, state: @escaping @Sendable () -> MediaPlayerState,
                 perform: @escaping @Sendable (MediaPlayerCommand) -> Void, wake: WakeDescriptor) {
        self.identity = identity
        self.state = state
        self.perform = perform
        self.wake = wake
    }

    /// Connects and publishes the player as org.mpris.MediaPlayer2.onair.instancePID; nil when there is no
    /// session bus or it refused (the player then simply has no desktop controls).
    /// `state` and `perform` are called on the bus thread and must not block.
    public static func start(identity: String, state: @escaping @Sendable () -> MediaPlayerState,
                             perform: @escaping @Sendable (MediaPlayerCommand) -> Void) -> MPRISPlayer? {
        guard sessionBusConfigured, let wake = WakeDescriptor() else { return nil }
        let player = MPRISPlayer(identity: identity, state: state, perform: perform, wake: wake)
        let opened = Locked(false)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            player.serve { connected in
                opened.withLock { $0 = connected }
                ready.signal()
            }
        }
        thread.name = "onair-mpris"
        thread.start()
        ready.wait()
        return opened.current ? player : nil
    }

    /// Asks the bus thread to look at the player's state now.
    public func refresh() { wake.signal() }

    /// Leaves the bus (the name goes away) and waits for the bus thread to end.
    public func stop() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        wake.signal()
        ended.wait()
    }

    // MARK: The bus thread

    private func serve(opened: (Bool) -> Void) {
        let handlers = UnsafeMutablePointer<onair_mpris_handlers>.allocate(capacity: 1)
        defer { handlers.deallocate() }
        handlers.initialize(to: onair_mpris_handlers(
            context: Unmanaged.passUnretained(self).toOpaque(),
            get_property: { context, interface, property, reply in
                MPRISPlayer.from(context).property(String(cString: interface!), String(cString: property!), into: BusMessage(reply!))
            },
            set_property: { context, property, value in
                MPRISPlayer.from(context).setProperty(String(cString: property!), from: BusMessage(value!))
            },
            call_method: { context, member, call in
                MPRISPlayer.from(context).call(String(cString: member!), BusMessage(call!))
            }))
        var connection: OpaquePointer?
        let name = "org.mpris.MediaPlayer2.onair.instance\(getpid())"
        guard onair_mpris_open(name, handlers, &connection) >= 0, let connection else {
            opened(false)
            ended.signal()
            return
        }
        bus = connection
        published = state()
        opened(true)
        while !stopping.current {
            wake.drain()
            publishChanges()
            if onair_mpris_run_once(connection, wake.readEnd, Self.checkInterval) < 0 { break }  // the bus went away
        }
        onair_mpris_close(connection)
        bus = nil
        ended.signal()
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MPRISPlayer {
        Unmanaged<MPRISPlayer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Signals what changed since the desktop was last told; a jump in position is a Seeked signal.
    private func publishChanges() {
        guard let bus, let earlier = published else { return }
        let now = state()
        let checkedAt = Date()
        if now.metadata != earlier.metadata { track += 1 }
        let names = now.changedProperties(since: earlier)
        if !names.isEmpty {
            var pointers = names.map { strdup($0) } + [nil]
            _ = onair_mpris_player_changed(bus, &pointers)
            pointers.forEach { free($0) }
        }
        let expected = earlier.position + (earlier.status == .playing ? checkedAt.timeIntervalSince(publishedAt) * earlier.rate : 0)
        if now.canSeek, now.metadata == earlier.metadata, abs(now.position - expected) > 1 {
            _ = onair_mpris_seeked(bus, Int64(now.position * 1_000_000))
        }
        published = now
        publishedAt = checkedAt
    }

    private var trackID: String { "/org/onair/track/\(track)" }

    private func property(_ interface: String, _ name: String, into reply: BusMessage) -> Int32 {
        let now = state()
        switch name {
        case "CanQuit", "CanControl", "CanPlay", "CanPause": return reply.append(true)
        case "CanRaise", "HasTrackList": return reply.append(false)
        case "Identity": return reply.append(identity)
        case "SupportedUriSchemes", "SupportedMimeTypes": return reply.append([String]())
        case "PlaybackStatus": return reply.append(now.status.rawValue)
        case "Rate", "MinimumRate", "MaximumRate": return reply.append(now.rate)
        case "Volume": return reply.append(now.volume)
        case "Position": return reply.append(Int64(now.position * 1_000_000))
        case "CanGoNext": return reply.append(now.canGoNext)
        case "CanGoPrevious": return reply.append(now.canGoPrevious)
        case "CanSeek": return reply.append(now.canSeek)
        case "Metadata": return reply.append(metadata(now))
        default: return -EINVAL
        }
    }

    private func metadata(_ now: MediaPlayerState) -> [(String, BusVariant)] {
        var entries: [(String, BusVariant)] = [("mpris:trackid", .objectPath(trackID))]
        if let title = now.title { entries.append(("xesam:title", .string(title))) }
        if let artist = now.artist { entries.append(("xesam:artist", .strings([artist]))) }
        if let album = now.album { entries.append(("xesam:album", .string(album))) }
        if let artwork = now.artworkURL { entries.append(("mpris:artUrl", .string(artwork))) }
        // A file's length as its container declares it: a year at most, or the microseconds would not fit.
        if let length = now.length, length.isFinite, length > 0 {
            entries.append(("mpris:length", .int64(Int64(min(length, ClockText.longest) * 1_000_000))))
        }
        return entries
    }

    private func setProperty(_ name: String, from value: BusMessage) -> Int32 {
        guard name == "Volume", let volume = value.readDouble() else { return -EINVAL }
        return command(.setVolume(max(0, volume)))
    }

    private func call(_ member: String, _ message: BusMessage) -> Int32 {
        switch member {
        case "Play": return command(.play)
        case "Pause": return command(.pause)
        case "PlayPause": return command(.playPause)
        case "Stop": return command(.stop)
        case "Next": return command(.next)
        case "Previous": return command(.previous)
        case "Quit": return command(.quit)
        case "Raise": return 0
        case "Seek":
            guard let offset = message.readInt64() else { return -EINVAL }
            return command(.seek(by: Double(offset) / 1_000_000))
        case "SetPosition":
            // Ignored unless it names the track playing, as MPRIS asks (a late request for the last one).
            guard let track = message.readObjectPath(), let position = message.readInt64() else { return -EINVAL }
            guard track == trackID else { return 0 }
            return command(.setPosition(Double(position) / 1_000_000))
        default: return -EOPNOTSUPP  // OpenUri: onair opens nothing it was not started with
        }
    }

    private func command(_ command: MediaPlayerCommand) -> Int32 {
        perform(command)
        wake.signal()  // tell the desktop at once what the command changed
        return 0
    }
}
