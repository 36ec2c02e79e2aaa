import Foundation
import StreamInput

/// Fetches guides into the store: a file once, a URL with a conditional request, so a guide the
/// server has not changed (304) costs neither a download nor a parse.
public enum GuideFetch {
    public enum Outcome: Sendable, Equatable {
        case imported(GuideImportSummary)
        /// The server answered 304: the copy imported last is current.
        case notModified
    }

    /// Guides larger than this are refused. A programme with its description, categories and credits is
    /// about 1 KB in XMLTV, and a channel has 20–40 a day: a week of a few hundred channels is a few tens of
    /// MiB, two weeks of a large lineup (a cable or satellite package, 500 channels) about 100 MiB. Past
    /// that a guide is not one a person listens from. `XMLLimits.guide` bounds what is inside.
    public static let maxBytes = 128 << 20

    public static func importFile(_ path: String, into store: GuideStore) throws(GuideError) -> GuideImportSummary {
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw GuideError("cannot read \(path): " + (FileManager.default.fileExists(atPath: path) ? "not a readable file" : "no such file"))
        }
        do {
            return try store.importGuide(try guide(in: data))
        } catch {
            throw GuideError("\(path): \(error)")
        }
    }

    /// The guide in a file's or a response's bytes, inflated first when they are gzip-compressed.
    static func guide(in data: Data) throws(GuideError) -> XMLTVGuide {
        try XMLTVReader.read(GzipGuide.isCompressed(data) ? try GzipGuide.inflated(data, maxBytes: maxBytes) : data)
    }

    /// Asks `url` for its guide, sending the validators of the copy imported last, and imports a new
    /// copy. The URL is remembered, for the daemon's refreshes.
    public static func refresh(_ url: String, into store: GuideStore, engine: TransferEngine = .shared,
                               now: Date = Date()) throws(GuideError) -> Outcome {
        var source = try store.source(url: url) ?? GuideSource(url: url)
        let outcome: ConditionalFetch.Outcome
        do {
            outcome = try ConditionalFetch.fetch(url, validators: HTTPValidators(etag: source.etag, lastModified: source.lastModified),
                                                 maxBytes: maxBytes, engine: engine)
        } catch {
            throw GuideError("\(error)")
        }
        source.checkedAt = now
        guard case .modified(let body, let validators) = outcome else {
            try store.save(source)
            return .notModified
        }
        let guide: XMLTVGuide
        do {
            guide = try Self.guide(in: body)
        } catch {
            throw GuideError("\(URLRedaction.redact(url)): \(error)")
        }
        let summary = try store.importGuide(guide)
        source.etag = validators.etag
        source.lastModified = validators.lastModified
        source.changedAt = now
        try store.save(source)
        return .imported(summary)
    }
}

/// Refreshes every guide URL on a schedule, on a thread of its own (the fetches block).
public final class GuideRefresher: Sendable {
    private let store: GuideStore
    private let interval: TimeInterval
    private let engine: TransferEngine
    private let report: @Sendable (_ url: String, _ outcome: Result<GuideFetch.Outcome, GuideError>) -> Void
    private let stopped = DispatchSemaphore(value: 0)

    /// `report` hears of each refresh, from the refresher's thread.
    public init(store: GuideStore, every interval: TimeInterval, engine: TransferEngine = .shared,
                report: @escaping @Sendable (_ url: String, _ outcome: Result<GuideFetch.Outcome, GuideError>) -> Void) {
        self.store = store; self.interval = interval; self.engine = engine; self.report = report
    }

    public func start() {
        let thread = Thread { [self] in
            repeat {
                refreshDue(at: Date())
            } while stopped.wait(timeout: .now() + min(interval, 60)) == .timedOut
        }
        thread.name = "onair-guide-refresh"
        thread.start()
    }

    public func stop() { stopped.signal() }

    /// Refreshes the sources not asked for within the interval.
    private func refreshDue(at instant: Date) {
        for source in (try? store.sources()) ?? [] where (source.checkedAt.map { instant.timeIntervalSince($0) >= interval } ?? true) {
            let outcome = Result { () throws(GuideError) in try GuideFetch.refresh(source.url, into: store, engine: engine, now: instant) }
            if case .failure = outcome, var failed = try? store.source(url: source.url) {
                // Tried: the next attempt waits for the next interval rather than hammering a failing server.
                failed.checkedAt = instant
                try? store.save(failed)
            }
            report(source.url, outcome)
        }
    }
}
