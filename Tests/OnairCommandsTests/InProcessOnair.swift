import ArgumentParser
import OnairCommands
import TestSupport

/// Runs `onair ARGUMENTS` in-process: what it printed and the exit status it ended with.
func runOnair(_ arguments: [String]) throws -> (output: CapturedOutput, status: Int32) {
    let (output, result) = try StandardStreamsCapture.run { () throws -> Void in
        var command = try Onair.parseAsRoot(arguments)
        try command.run()
    }
    switch result {
    case .success: return (output, 0)
    case .failure(let error): return (output, Onair.exitCode(for: error).rawValue)
    }
}
