import Foundation
import Hummingbird
import Logging
import NIOPosix
import Recording

/// A recording's audio file, by its id in the index: ranges (seeking in the browser), conditional
/// requests and the content type are Hummingbird's `FileMiddleware`'s; only files under the recordings
/// directory are served, never a path from the address.
struct RecordingAudio: Sendable {
    let index: any RecordingsIndexing
    let directory: URL

    /// `/recordings/ID/audio/FILE-NAME`: the name makes downloads keep it and gives the content type.
    static func url(of entry: IndexedRecording) -> String {
        let name = URL(fileURLWithPath: entry.file).lastPathComponent
        return "/recordings/\(entry.id ?? 0)/audio/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "audio")
    }

    func serve(id: Int64, request: Request, context: BasicRequestContext) async throws -> Response {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let file = try await NIOThreadPool.singleton.runIfActive { () throws -> String? in
            guard let entry = try index.recording(id: id) else { return nil }
            let path = URL(fileURLWithPath: entry.file).standardizedFileURL.resolvingSymlinksInPath().path
            return path.hasPrefix(root) ? path : nil
        }
        guard let file else { throw HTTPError(.notFound, message: "no recording \(id)") }
        let files = FileMiddleware<BasicRequestContext, OneFile>(fileProvider: OneFile(path: file))
            .withAdditionalMediaTypes(forFileExtensions: ["m4a": MediaType(type: .audio, subType: "mp4"), "ogg": MediaType(type: .audio, subType: "ogg"),
                                                          "opus": MediaType(type: .audio, subType: "ogg"), "flac": MediaType(type: .audio, subType: "flac")])
        return try await files.handle(request, context: context) { _, _ in throw HTTPError(.notFound) }
    }
}

/// The one file a request resolved to, read through Hummingbird's local file system.
private struct OneFile: FileProvider {
    let path: String
    private static let files = LocalFileSystem(rootFolder: "/", threadPool: .singleton, logger: Logger(label: "onair.web.audio"))
    private var files: LocalFileSystem { Self.files }

    init(path: String) { self.path = path }

    func getFileIdentifier(_ requestPath: String) -> String? { path }

    func getAttributes(id: String) async throws -> LocalFileSystem.FileAttributes? { try await files.getAttributes(id: id) }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody { try await files.loadFile(id: id, context: context) }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }
}
