import Foundation
import Synchronization
import TestSupport
import XCTest

/// Every case of the real-world corpus (`Tests/RealWorld`: artifacts broadcasters and other
/// projects wrote), run through the built `onair` as a user runs it, each with an ONAIR_HOME and a
/// corpus server of its own, and judged by `RealWorldJudge` against `expectations.json`. Only an
/// outcome the case lists passes. One failure per case: its id, artifact, what was expected, what
/// onair said.
final class RealWorldCorpusCLITests: XCTestCase {
    /// Cases run at once: most of each one's time is spent waiting (a 3 s listen, a process start).
    private static let parallelCases = 4

    func testTheCorpusHoldsEveryCaseAndWhereEachArtifactCameFrom() throws {
        let corpus = try RealWorldCorpus()
        let cases = try corpus.cases()
        XCTAssertEqual(cases.count, 163, "expectations.json lost or gained cases")
        XCTAssertEqual(Set(cases.map(\.id)).count, cases.count, "case ids repeat")
        let blocks = try corpus.metadataBlocks()
        for corpusCase in cases {
            XCTAssertFalse(corpusCase.outcomes.isEmpty, "\(corpusCase.id): no outcome passes")
            if let block = corpusCase.metadataBlockID {
                XCTAssertNotNil(blocks[block], "\(corpusCase.id): no metadata block \(block)")
            } else {
                XCTAssertTrue(FileManager.default.fileExists(atPath: corpus.file(corpusCase.artifact).path), "\(corpusCase.id): no \(corpusCase.artifact)")
            }
        }
        // Every artifact has its provenance, and every provenance entry its artifact.
        let folders = try FileManager.default.contentsOfDirectory(atPath: corpus.directory.path)
            .filter { FileManager.default.fileExists(atPath: corpus.file("\($0)/PROVENANCE.json").path) }
        XCTAssertEqual(Set(folders), ["asx", "dash", "hls", "icy", "m3u", "pls", "podcasts", "xmltv", "xspf"])
        struct Provenance: Decodable { let file: String?, repository: String?, metadataBlock: String? }
        for folder in folders {
            let listed = try JSONDecoder().decode([Provenance].self, from: corpus.data("\(folder)/PROVENANCE.json"))
            let files = Set(FileManager.default.subpaths(atPath: corpus.file(folder).path)!.filter {
                !$0.hasPrefix(".") && !["PROVENANCE.json", "metadata-blocks.json"].contains($0)
                    && !FileManager.default.isDirectory(corpus.file("\(folder)/\($0)"))
            })
            XCTAssertEqual(Set(listed.compactMap(\.file)), files, "\(folder)/PROVENANCE.json")
            if folder == "icy" { XCTAssertEqual(Set(listed.compactMap(\.metadataBlock)), Set(blocks.keys)) }
        }
    }

    func testEveryResolveCase() throws { try runEveryCase(.resolve) }

    func testEveryListenCase() throws { try runEveryCase(.listen) }

    func testEveryPodcastFeed() throws { try runEveryCase(.podcast) }

    func testEveryGuide() throws { try runEveryCase(.guide) }

    func testEveryICYMetadataBlockOnTheWire() throws { try runEveryCase(.icyMetadata) }

    // MARK: running cases

    private func runEveryCase(_ command: CorpusCase.Command) throws {
        let corpus = try RealWorldCorpus()
        let cases = try corpus.cases().filter { $0.command == command }
        XCTAssertFalse(cases.isEmpty)
        let audio = try Data(contentsOf: AudioFixtures.sine(frequency: 440, seconds: 20, bitrate: 128))
        let judge = RealWorldJudge(corpus: corpus)
        let failures = Self.inParallel(cases) { corpusCase -> String? in
            do {
                let verdict = try judge.verdict(corpusCase, Self.run(corpusCase, corpus: corpus, audio: audio))
                return verdict.passed ? nil : verdict.said
            } catch {
                return "the case could not run: \(error)"
            }
        }
        for corpusCase in cases {
            guard let said = failures[corpusCase.id] else { continue }
            XCTFail("\(corpusCase.id) (\(corpusCase.artifact)\(corpusCase.failingHosts.map { " with \($0.joined(separator: ",")) dead" } ?? "")"
                    + "\(corpusCase.quality.map { ", --quality \($0)" } ?? "")): expected \(RealWorldJudge.expected(corpusCase)); onair said: \(said)")
        }
    }

    /// Runs the case's command against a corpus server of its own, so that the requests it logs are this case's.
    private static func run(_ corpusCase: CorpusCase, corpus: RealWorldCorpus, audio: Data) throws -> CorpusRun {
        let server = try CorpusServer(corpus: corpus, audio: audio)
        defer { server.stop() }
        let onair = try OnairBinary()
        defer { onair.home.remove() }
        let url = server.url(for: corpusCase)
        let quality = corpusCase.quality.map { ["--quality", $0] } ?? []
        let steps: [ProcessResult]
        switch corpusCase.command {
        case .resolve:
            steps = [try onair.run(["resolve", url, "--json"] + quality)]
        case .listen:
            let sink = "wav:" + onair.home.file("\(corpusCase.id).wav").path
            let arguments = ["listen", url, "--sink", sink, "--duration", "3", "--json", "--max-reconnects", "1", "--stall-timeout", "4"] + quality
            if let edge = corpusCase.outcomes.compactMap(\.liveEdge).first {
                // Only the first media request is judged, and a live stream whose segments are all
                // missing here goes on asking for the next: stop once that request has arrived.
                let listen = try onair.start(arguments)
                let asked = eventually(timeout: 30) { server.requests.contains { $0.path.contains(edge.pathContains) && $0.path.hasSuffix(".m4s") } }
                listen.stop()
                steps = [listen.result(timedOut: !asked)]
            } else {
                steps = [try onair.run(arguments, timeout: 30)]
            }
        case .icyMetadata:
            let sink = "wav:" + onair.home.file("\(corpusCase.id).wav").path
            steps = [try onair.run(["listen", url, "--sink", sink, "--duration", "2", "--json"], timeout: 30)]
        case .podcast:
            steps = [try onair.run(["podcasts", "add", url]), try onair.run(["podcasts", "episodes", "--json"])]
        case .guide:
            let source = corpusCase.served == .fromDisk ? corpus.file(corpusCase.artifact).path : url
            let utc = ["TZ": "UTC"]
            steps = [try onair.run(["guide", "import", source, "--json"], extraEnvironment: utc),
                     try onair.run(["guide", "--date", corpusCase.day ?? "", "--json"], extraEnvironment: utc)]
        }
        return CorpusRun(steps: steps, requests: server.requests)
    }

    /// Calls `body` for every case on `parallelCases` threads; what it returned, by case id.
    private static func inParallel(_ cases: [CorpusCase], _ body: @escaping @Sendable (CorpusCase) -> String?) -> [String: String] {
        let progress = Progress(cases)
        let workers = DispatchGroup()
        for _ in 0..<min(parallelCases, cases.count) {
            DispatchQueue.global().async(group: workers) {
                while let corpusCase = progress.next() {
                    if let failure = body(corpusCase) { progress.record(corpusCase.id, failure) }
                }
            }
        }
        workers.wait()
        return progress.failures.withLock { $0 }
    }

    /// The cases not yet taken and the failures so far, shared by the worker threads.
    private final class Progress: Sendable {
        private let cases: [CorpusCase]
        private let taken = Mutex(0)
        let failures = Mutex<[String: String]>([:])

        init(_ cases: [CorpusCase]) { self.cases = cases }

        func next() -> CorpusCase? {
            taken.withLock { count in
                guard count < cases.count else { return nil }
                defer { count += 1 }
                return cases[count]
            }
        }

        func record(_ id: String, _ failure: String) { failures.withLock { $0[id] = failure } }
    }
}

private extension FileManager {
    func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
