/// A live source of audio bytes, delivered as runs: a new run after each reconnect or discontinuity.
public protocol IngestSource: AnyObject, Sendable {
    func start()
    /// Blocks until the next run is ready; nil once the source has ended.
    func nextRun() -> IngestRun?
    /// Ends the source at once.
    func stop()
}
