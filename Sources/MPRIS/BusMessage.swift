import CSystemdBus
#if canImport(Glibc)
import Glibc
#endif

/// A value inside a D-Bus variant, as MPRIS's Metadata map holds them.
enum BusVariant {
    case string(String)
    case strings([String])
    case int64(Int64)
    case objectPath(String)
}

/// Typed reads and writes of an sd-bus message (a property's reply or value, a method's arguments);
/// each write returns sd-bus's result, 0 or more on success, a negative errno otherwise.
struct BusMessage {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) { self.message = message }

    func append(_ value: String) -> Int32 { append(value, type: "s") }

    func append(_ value: Bool) -> Int32 {
        var boolean: Int32 = value ? 1 : 0
        return sd_bus_message_append_basic(message, Self.code("b"), &boolean)
    }

    func append(_ value: Double) -> Int32 {
        var double = value
        return sd_bus_message_append_basic(message, Self.code("d"), &double)
    }

    func append(_ value: Int64) -> Int32 {
        var integer = value
        return sd_bus_message_append_basic(message, Self.code("x"), &integer)
    }

    func append(_ values: [String]) -> Int32 {
        container("a", "s") { values.lazy.map { append($0) }.first { $0 < 0 } ?? 0 }
    }

    /// An a{sv} map.
    func append(_ entries: [(String, BusVariant)]) -> Int32 {
        container("a", "{sv}") {
            for (key, value) in entries {
                let result = container("e", "sv") {
                    let keyResult = append(key)
                    guard keyResult >= 0 else { return keyResult }
                    return append(value)
                }
                if result < 0 { return result }
            }
            return 0
        }
    }

    func readDouble() -> Double? {
        var value = 0.0
        return sd_bus_message_read_basic(message, Self.code("d"), &value) > 0 ? value : nil
    }

    func readInt64() -> Int64? {
        var value: Int64 = 0
        return sd_bus_message_read_basic(message, Self.code("x"), &value) > 0 ? value : nil
    }

    func readObjectPath() -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, Self.code("o"), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    private func append(_ variant: BusVariant) -> Int32 {
        switch variant {
        case .string(let text): return container("v", "s") { append(text) }
        case .strings(let list): return container("v", "as") { append(list) }
        case .int64(let number): return container("v", "x") { append(number) }
        case .objectPath(let path): return container("v", "o") { append(path, type: "o") }
        }
    }

    private func append(_ text: String, type: Character) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, Self.code(type), $0) }
    }

    private func container(_ type: Character, _ contents: String, _ body: () -> Int32) -> Int32 {
        var result = sd_bus_message_open_container(message, Self.code(type), contents)
        guard result >= 0 else { return result }
        result = body()
        guard result >= 0 else { return result }
        return sd_bus_message_close_container(message)
    }

    private static func code(_ type: Character) -> CChar { CChar(type.asciiValue!) }
}

/// The eventfd that wakes the bus thread.
final class WakeDescriptor: Sendable {
    let readEnd: Int32

    init?() {
        readEnd = onair_wake_open()
        guard readEnd >= 0 else { return nil }
    }

    deinit { close(readEnd) }

    func signal() { onair_wake_signal(readEnd) }
    func drain() { onair_wake_drain(readEnd) }
}
