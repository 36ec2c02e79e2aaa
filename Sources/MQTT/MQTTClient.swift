import CMosquitto
import Foundation
import RadioModel

/// What went wrong with the broker, in one line.
public struct MQTTError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
    init(_ what: String, code: Int32) { description = "\(what): \(String(cString: mosquitto_strerror(code)))" }
}

/// One connection to an MQTT broker (3.1.1), kept up by libmosquitto: the Eclipse Mosquitto project's own client,
/// used because no Swift MQTT client resolves among this project's packages, and because it already does what a
/// long-running client needs — keep-alive, the last will, TLS, and reconnecting with a growing delay when the broker
/// goes away. Its network thread (`mosquitto_loop_start`) owns the socket; what the broker sends and how the
/// connection goes is handed to `onEvent` on that thread, which must not block it.
public final class MQTTClient: @unchecked Sendable {  // `handle`: libmosquitto's calls are thread-safe once its thread runs; `started` inside its lock
    /// A message the broker delivered.
    public struct Message: Sendable, Equatable {
        public let topic: String
        public let payload: Data
        /// The broker kept it and sends it to every client that subscribes: not something said now.
        public let retained: Bool
    }

    /// What the broker publishes for this client when it is gone without saying goodbye (killed, cut off).
    public struct Will: Sendable {
        public let topic: String
        public let payload: String
        public init(topic: String, payload: String) { (self.topic, self.payload) = (topic, payload) }
    }

    public enum Event: Sendable {
        /// Connected, or connected again: subscriptions and retained state are to be sent again.
        case connected
        /// The connection was lost; libmosquitto connects again by itself.
        case disconnected(reason: String)
        case message(Message)
        /// The broker refused the connection (bad credentials, not authorised); it is tried again later.
        case refused(reason: String)
    }

    /// The delays between attempts to connect again: from 1 s, doubling, up to 60 s.
    static let reconnectDelays = (first: UInt32(1), longest: UInt32(60))
    /// A message's payload taken at most; longer ones are cut there (commands are a few bytes).
    public static let longestPayload = 4096

    public let broker: BrokerURL
    private let handle: OpaquePointer
    private let onEvent: @Sendable (Event) -> Void
    private let started = Locked(false)

    private static let libraryReady: Void = { _ = mosquitto_lib_init() }()

    /// - Parameters:
    ///   - will: published (retained, QoS 1) by the broker once the client is gone without disconnecting.
    ///   - keepAlive: seconds between pings; the broker declares the client gone after 1.5 times that in silence.
    public init(broker: BrokerURL, clientID: String, keepAlive: Int32 = 30, will: Will?,
                onEvent: @escaping @Sendable (Event) -> Void) throws(MQTTError) {
        Self.libraryReady
        guard let handle = mosquitto_new(clientID, true, nil) else { throw MQTTError("cannot make an MQTT client (out of memory)") }
        self.handle = handle
        self.broker = broker
        self.onEvent = onEvent
        self.keepAlive = keepAlive
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        var code = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        if code == MOSQ_ERR_SUCCESS.rawValue, broker.user != nil || broker.password != nil {
            code = mosquitto_username_pw_set(handle, broker.user, broker.password)
        }
        if code == MOSQ_ERR_SUCCESS.rawValue, let will {
            code = mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, 1, true)
        }
        if code == MOSQ_ERR_SUCCESS.rawValue, broker.tls {
            code = mosquitto_tls_set(handle, nil, "/etc/ssl/certs", nil, nil, nil)
        }
        if code == MOSQ_ERR_SUCCESS.rawValue {
            code = mosquitto_reconnect_delay_set(handle, Self.reconnectDelays.first, Self.reconnectDelays.longest, true)
        }
        // `deinit` destroys the handle, also when this throws (every stored property is set).
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("cannot set up the MQTT client for \(broker)", code: code) }
        mosquitto_connect_callback_set(handle) { _, context, code in MQTTClient.from(context)?.connected(code) }
        mosquitto_disconnect_callback_set(handle) { _, context, code in MQTTClient.from(context)?.disconnected(code) }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message, let client = MQTTClient.from(context) else { return }
            client.received(message.pointee)
        }
    }

    private let keepAlive: Int32

    deinit {
        stop()
        mosquitto_destroy(handle)
    }

    /// Connects in the background, and keeps connecting again whenever the connection is lost, until `stop()`.
    public func start() {
        guard started.withLock({ started in defer { started = true }; return !started }) else { return }
        // A broker out of reach now is tried again by the network thread, with the delays above.
        let code = mosquitto_connect_async(handle, broker.host, Int32(broker.port), keepAlive)
        if code != MOSQ_ERR_SUCCESS.rawValue { onEvent(.disconnected(reason: MQTTError("cannot reach \(broker)", code: code).description)) }
        _ = mosquitto_loop_start(handle)
    }

    /// Publishes with QoS 1 (at least once). What is published while the connection is down may be lost: the owner
    /// sends its retained state again on `.connected`.
    public func publish(_ topic: String, _ payload: String, retain: Bool) {
        let bytes = Array(payload.utf8)
        _ = mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes, 1, retain)
    }

    public func subscribe(_ filter: String) {
        _ = mosquitto_subscribe(handle, nil, filter, 1)
    }

    /// Says goodbye to the broker (the last will is not published: the owner publishes what it wants first) and
    /// waits for the network thread to end.
    public func stop() {
        guard started.withLock({ started in defer { started = false }; return started }) else { return }
        _ = mosquitto_disconnect(handle)
        _ = mosquitto_loop_stop(handle, false)
    }

    // MARK: On the network thread

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTClient? {
        context.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private func connected(_ code: Int32) {
        if code == 0 { return onEvent(.connected) }
        onEvent(.refused(reason: "\(broker) refused the connection: \(String(cString: mosquitto_connack_string(code)))"))
    }

    private func disconnected(_ code: Int32) {
        // 0: asked for by `stop()`.
        guard code != 0 else { return }
        onEvent(.disconnected(reason: "lost the connection to \(broker): \(String(cString: mosquitto_strerror(code)))"))
    }

    private func received(_ message: mosquitto_message) {
        guard let topic = message.topic else { return }
        let length = min(Int(max(0, message.payloadlen)), Self.longestPayload)
        let payload = message.payload.map { Data(bytes: $0, count: length) } ?? Data()
        onEvent(.message(Message(topic: String(cString: topic), payload: payload, retained: message.retain)))
    }
}
