import CFFmpeg
import Foundation

/// libavdevice and libavfilter, loaded with `dlopen` the first time a command needs them rather than
/// linked: between them they pull in about 80 more shared libraries (SDL2, X11, VA-API, VDPAU, JACK,
/// …) that every `onair` start would otherwise map and relocate, and that only the audio-device sinks,
/// `--speed` and loudness use. Each holds the few functions onair calls, typed as in FFmpeg's headers.
struct OnDemandLibrary: @unchecked Sendable {  // an immutable dlopen handle; dlsym is thread-safe
    private let handle: UnsafeMutableRawPointer

    /// Loads `soname` (RTLD_GLOBAL, so that what it brings, such as alsa-lib, is found by name too).
    init(_ soname: String, purpose: String) throws {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_GLOBAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw MediaError("\(purpose) needs \(soname), which cannot be loaded (\(reason))")
        }
        self.handle = handle
    }

    func function<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let symbol = dlsym(handle, name) else { throw MediaError("\(name) is missing from this FFmpeg") }
        return unsafeBitCast(symbol, to: type)
    }
}

/// The libavdevice functions the audio-device sinks use.
public struct DeviceLibrary: Sendable {
    public let registerAll: @convention(c) () -> Void
    public let appToDeviceControlMessage: @convention(c) (
        UnsafeMutablePointer<AVFormatContext>?, AVAppToDevMessageType, UnsafeMutableRawPointer?, Int
    ) -> Int32

    /// Loaded (and its outputs registered) once per process; throws when the library is not there.
    public static func shared() throws -> DeviceLibrary { try loaded.get() }

    private static let loaded = Result<DeviceLibrary, Error> {
        let library = try OnDemandLibrary("libavdevice.so.\(LIBAVDEVICE_VERSION_MAJOR)", purpose: "playing on an audio device")
        let device = DeviceLibrary(
            registerAll: try library.function("avdevice_register_all", as: (@convention(c) () -> Void).self),
            appToDeviceControlMessage: try library.function("avdevice_app_to_dev_control_message",
                                                            as: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?,
                                                                                 AVAppToDevMessageType, UnsafeMutableRawPointer?,
                                                                                 Int) -> Int32).self))
        device.registerAll()
        return device
    }
}

/// The libavfilter functions `PCMFilterGraph` uses (`--speed`, the loudness meter).
struct FilterLibrary: Sendable {
    typealias Graph = UnsafeMutablePointer<AVFilterGraph>
    typealias Context = UnsafeMutablePointer<AVFilterContext>
    typealias Frame = UnsafeMutablePointer<AVFrame>

    let graphAlloc: @convention(c) () -> Graph?
    let graphFree: @convention(c) (UnsafeMutablePointer<Graph?>?) -> Void
    let getByName: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    let graphCreateFilter: @convention(c) (UnsafeMutablePointer<Context?>?, UnsafePointer<AVFilter>?, UnsafePointer<CChar>?,
                                           UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Graph?) -> Int32
    let link: @convention(c) (Context?, UInt32, Context?, UInt32) -> Int32
    let graphConfig: @convention(c) (Graph?, UnsafeMutableRawPointer?) -> Int32
    let bufferSourceAddFrame: @convention(c) (Context?, Frame?) -> Int32
    let bufferSinkGetFrame: @convention(c) (Context?, Frame?) -> Int32

    static func shared() throws -> FilterLibrary { try loaded.get() }

    private static let loaded = Result<FilterLibrary, Error> {
        let library = try OnDemandLibrary("libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)", purpose: "changing the speed or measuring loudness")
        return FilterLibrary(
            graphAlloc: try library.function("avfilter_graph_alloc", as: (@convention(c) () -> Graph?).self),
            graphFree: try library.function("avfilter_graph_free", as: (@convention(c) (UnsafeMutablePointer<Graph?>?) -> Void).self),
            getByName: try library.function("avfilter_get_by_name",
                                            as: (@convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?).self),
            graphCreateFilter: try library.function("avfilter_graph_create_filter",
                                                    as: (@convention(c) (UnsafeMutablePointer<Context?>?, UnsafePointer<AVFilter>?,
                                                                         UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                                                         UnsafeMutableRawPointer?, Graph?) -> Int32).self),
            link: try library.function("avfilter_link", as: (@convention(c) (Context?, UInt32, Context?, UInt32) -> Int32).self),
            graphConfig: try library.function("avfilter_graph_config",
                                              as: (@convention(c) (Graph?, UnsafeMutableRawPointer?) -> Int32).self),
            bufferSourceAddFrame: try library.function("av_buffersrc_add_frame", as: (@convention(c) (Context?, Frame?) -> Int32).self),
            bufferSinkGetFrame: try library.function("av_buffersink_get_frame", as: (@convention(c) (Context?, Frame?) -> Int32).self))
    }
}
