import AssemblyLine
package import Foundation

/// Runs the built `assemblyline` binary as a user would, and captures what it prints and how it exits.
package struct BinaryRunner {
    /// What one invocation printed and returned.
    package struct Outcome {
        /// The exit status, or the signal's number when `reason` is `.uncaughtSignal`.
        package var status: Int32
        package var stdout: String
        package var stderr: String
        /// Whether the process exited or a signal ended it.
        package var reason: Process.TerminationReason = .exit

        /// True when the signal `number` ended the process.
        package func wasKilled(by number: Int32) -> Bool {
            reason == .uncaughtSignal && status == number
        }
    }

    /// The binary beside the test bundle, which `swift build --build-tests` builds with it.
    package static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ASSEMBLYLINE_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("assemblyline")
    }()

    /// How many children run at once across the test process. Two cores: a hundred test children at once (the CLI
    /// suite's tests all start together) put the load at 46 and the timing of the tests that watch a run's progress at
    /// the scheduler's mercy; waiting on dispatch's threads used to bound them by accident.
    private static let slots = AsyncSemaphore(limit: 6)

    /// Runs the binary (or another program, such as `script` around it) with arguments in a directory,
    /// with the environment given plus PATH, HOME, and an XDG_STATE_HOME of the directory's own
    /// (`.state`, so that the run index of one test is not another's).
    ///
    /// The process is waited for and its pipes are read on threads of their own, neither on the cooperative pool nor
    /// on dispatch's global queues: on Linux Swift's tasks run on the default global queue, whose threads a blocking
    /// read would hold (eighteen at once stalled every other test of the process for 10 to 20 s). At most ``slots``
    /// children run at once; the others wait their turn before they start.
    package static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                            executable: URL = binary) async throws -> Outcome {
        try await slots.withSlot { try await launch(arguments, in: directory, environment: environment, executable: executable) }
    }

    private static func launch(_ arguments: [String], in directory: URL, environment: [String: String], executable: URL) async throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var base = ["PATH": "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        base["XDG_STATE_HOME"] = directory.appendingPathComponent(".state").path
        process.environment = base.merging(environment) { $1 }
        let out = ChildLaunch.pipe(), err = ChildLaunch.pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ChildLaunch.run(process)
        return await withCheckedContinuation { continuation in
            Thread {
                let group = DispatchGroup()
                nonisolated(unsafe) var errData = Data()
                group.enter()
                Thread {
                    errData = err.fileHandleForReading.readDataToEndOfFile()
                    group.leave()
                }.start()
                let outData = out.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilEnded()
                continuation.resume(returning: Outcome(status: process.terminationStatus,
                                                       stdout: String(decoding: outData, as: UTF8.self),
                                                       stderr: String(decoding: errData, as: UTF8.self),
                                                       reason: process.terminationReason))
            }.start()
        }
    }
}
