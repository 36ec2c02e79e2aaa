import Outputs
import Recording

extension JobSpec {
    /// The job as a request from the network may have it: its sinks among those declared on the box,
    /// its output template inside the recordings folder. Marked so, it is checked again whenever it
    /// starts (a persisted job after a restart, when a sink may no longer be declared).
    public func admittedFromNetwork(declared: DeclaredSinks) throws(EngineError) -> JobSpec {
        var admitted = self
        do {
            admitted.sinks = try sinks.map(declared.resolve)
        } catch {
            throw EngineError(error.description, kind: .configuration)
        }
        if let output {
            do { _ = try FileNameTemplate(fromNetwork: output) } catch { throw EngineError(error.description, kind: .configuration) }
        }
        admitted.fromNetwork = true
        return admitted
    }
}
