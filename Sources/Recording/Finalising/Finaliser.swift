import Foundation
import Media
#if canImport(Glibc)
import Glibc
#endif

/// Turns a partial file and its journal into the finished recording: a remux (no re-encoding) into
/// the final container with tags and chapters, a cue sheet, the file put in place under a name that
/// replaces nothing, and an entry in the index.
///
/// Every step can be repeated after a crash: the partial file and journal are removed only once the
/// finished file is in place and indexed, and the journal notes when it is, so `onair recover` never
/// makes a second copy. Work runs on a serial queue of its own (file I/O, never Swift's cooperative
/// pool), away from the decode threads.
public final class Finaliser: @unchecked Sendable {  // immutable; the work is serialised on `queue`
    private let index: (any RecordingsIndexing)?
    /// Whether each recording is decoded once more, when finished, to measure its loudness for the
    /// index and the ReplayGain/R128 tags. Asked for (`--normalize`), not done by default: that decode
    /// costs more than recording the stream as sent (BENCHMARKS.md, record-many).
    private let measuresLoudness: Bool
    private let queue = DispatchQueue(label: "onair.finalise")
    private let group = DispatchGroup()

    public init(index: (any RecordingsIndexing)?, measuresLoudness: Bool = false) {
        self.index = index
        self.measuresLoudness = measuresLoudness
    }

    /// Finalises in the background; `report` gets the outcome.
    public func enqueue(journal: URL, report: @escaping @Sendable (Result<FinishedRecording, RecordingError>) -> Void) {
        group.enter()
        queue.async { [self] in
            defer { group.leave() }
            do throws(RecordingError) {
                report(.success(try finalise(journal: journal)))
            } catch {
                report(.failure(error))
            }
        }
    }

    /// Finalises in the background and reports the outcome as a recording event.
    func enqueue(_ journal: URL, reportingTo onEvent: @escaping @Sendable (RecordingEvent) -> Void) {
        enqueue(journal: journal) { result in
            switch result {
            case .success(let finished): onEvent(.finished(finished))
            case .failure(let error): onEvent(.notFinalised(error.description, journal: journal))
            }
        }
    }

    /// How a failure to make the finished file begins (an episode's note drops it once the file is made).
    public static let failurePrefix = "cannot finalise "

    /// Blocks until everything enqueued is done.
    public func waitUntilIdle() { group.wait() }

    /// Finalises now. Throws if the recording is still running (its journal is locked), if nothing
    /// was recorded (the leftovers are removed), or if a step fails (everything is left for a retry).
    public func finalise(journal url: URL) throws(RecordingError) -> FinishedRecording {
        let journal = try Journal(url: url, create: false)
        defer { journal.close() }
        let contents = try JournalContents(journal.entries())
        let directory = url.deletingLastPathComponent()
        let partial = directory.appendingPathComponent(contents.start.partialFile)
        if let finished = contents.finalised {
            try index?.add(finished)
            Self.remove(partial, url)
            return finished
        }
        guard let container = AudioContainer(rawValue: contents.start.container) else {
            throw RecordingError("\(url.path) names an unknown container '\(contents.start.container)'")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int64) ?? nil
        guard let size, size > 0 else {
            Self.remove(partial, url)
            throw RecordingError("nothing was recorded into \(partial.lastPathComponent)")
        }
        let summary: RemuxSummary
        do {
            summary = try ContainerRemux.summary(of: partial.path)
        } catch {
            throw RecordingError("cannot read \(partial.path): \(error)")
        }
        guard summary.packets > 0 else {
            Self.remove(partial, url)
            throw RecordingError("nothing was recorded into \(partial.lastPathComponent)")
        }

        let start = contents.start
        let gaps = contents.gaps.filter { $0.at < summary.duration }
        let titles = contents.titles.filter { $0.start < summary.duration }
        let clips = contents.clips.filter { $0.at < summary.duration }
        let chapters = start.track != nil ? [] : ChapterList.chapters(titles: titles, gaps: gaps, clips: clips, duration: summary.duration,
                                                                        untitled: contents.stationName)
        var metadata = RecordingTags.metadata(for: contents, duration: summary.duration, gaps: gaps)
        // The audio stays as sent; its loudness goes into the tags (ReplayGain, R128) for players to level it.
        let loudness = measuresLoudness ? Self.loudness(of: partial.path) : nil
        if let loudness { metadata.merge(loudness.tags(container: container, codec: summary.codecName)) { $1 } }
        let desired = try desiredPath(contents)
        // Named after the partial file, which was created exclusively: daemons sharing a directory may
        // finish files that want the same name (two stations of one host, one start minute) at once.
        let temporary = desired.deletingLastPathComponent()
            .appendingPathComponent("\(partial.deletingPathExtension().lastPathComponent).finalising.\(desired.pathExtension)")
        Self.remove(temporary)
        let written: RemuxSummary
        do {
            try FileManager.default.createDirectory(at: desired.deletingLastPathComponent(), withIntermediateDirectories: true)
            written = try ContainerRemux.remux(input: partial.path, output: temporary.path, container: container,
                                               metadata: metadata, chapters: chapters)
            try Self.sync(temporary)
        } catch {
            Self.remove(temporary)
            throw RecordingError("\(Self.failurePrefix)\(partial.path): \(error)")
        }
        let file = try UniquePath.move(temporary, toFreeNameLike: desired)
        let cueSheet = chapters.isEmpty ? nil : try? writeCueSheet(for: file, contents: contents, metadata: metadata, chapters: chapters)
        let finalSize = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? nil
        let finished = FinishedRecording(
            station: StationLabel(id: start.station.id, name: contents.stationName), programme: start.programme,
            start: start.startedAt,
            end: contents.endedAt ?? start.startedAt.addingTimeInterval(written.duration + gaps.reduce(0) { $0 + $1.seconds }),
            timeZone: start.timeZone, file: file.path, cueSheet: cueSheet?.path, size: finalSize ?? 0, duration: written.duration,
            codec: written.codecName, container: container.rawValue, titles: titles, gaps: gaps, clips: clips, source: contents.source,
            track: start.track, loudness: loudness?.integrated, episode: start.episode)
        try journal.append(.finalised(finished))
        try journal.sync()
        try index?.add(finished)
        Self.remove(partial, url)
        // The finished file's name came out different (a server's name, a title): the partial's
        // directory may now be empty.
        if directory.standardizedFileURL != file.deletingLastPathComponent().standardizedFileURL { rmdir(directory.path) }
        return finished
    }

    /// Where the finished file goes: the template again, now that the titles are known.
    private func desiredPath(_ contents: JournalContents) throws(RecordingError) -> URL {
        let start = contents.start
        let template = try FileNameTemplate(start.template)
        let cut = start.track.map { $0.completeness != .whole } ?? false
        let values = FileNameTemplate.Values(station: contents.stationName, programme: start.programme?.name,
                                             title: contents.titles.first?.title, start: start.startedAt,
                                             timeZone: TimeZone(identifier: start.timeZone) ?? .current,
                                             fileExtension: start.fileExtension, mark: cut ? " (partial)" : nil)
        return template.path(for: values, base: URL(fileURLWithPath: start.base, isDirectory: true))
    }

    /// `NAME.cue` beside `NAME.EXT`; an existing cue sheet is left alone.
    private func writeCueSheet(for file: URL, contents: JournalContents, metadata: [String: String],
                               chapters: [Chapter]) throws -> URL {
        let cue = file.deletingPathExtension().appendingPathExtension("cue")
        let text = CueSheet.text(fileName: file.lastPathComponent, container: file.pathExtension, performer: contents.stationName,
                                 title: metadata["title"] ?? "", date: metadata["date"] ?? "", chapters: chapters)
        let descriptor = open(cue.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RecordingError.cannot("create", cue.path, errno: errno) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw RecordingError.cannot("write", cue.path, errno: errno)
        }
        return cue
    }

    /// The recording's loudness and peak, decoded once through; nil for silence or audio that does not decode
    /// (the recording is finished without the tags).
    private static func loudness(of path: String) -> LoudnessTag? {
        guard let measured = try? LoudnessMeter.measure(file: path), let integrated = measured.integrated else { return nil }
        return LoudnessTag(integrated: integrated, peak: measured.peak)
    }

    private static func sync(_ file: URL) throws(RecordingError) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw RecordingError.cannot("sync", file.path, errno: errno)
        }
    }

    private static func remove(_ files: URL...) {
        for file in files { unlink(file.path) }
    }
}
