import Foundation

/// A process that holds an `flock` on a file or directory (`flock(1)`) until this value goes: the lock another process finds taken.
package final class FlockHolder {
    private let process = Process()

    package init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = [path, "sleep", "60"]
        try process.run()
    }

    deinit {
        process.terminate()
    }

    /// Runs the binary until its exit status is `status` (the holder takes a moment to lock), 5 s at most; returns the last outcome.
    package func run(_ arguments: [String], in directory: URL, until status: Int32) throws -> BinaryRunner.Outcome {
        var outcome = try BinaryRunner.run(arguments, in: directory)
        for _ in 0..<50 where outcome.status != status {
            usleep(100_000)
            outcome = try BinaryRunner.run(arguments, in: directory)
        }
        return outcome
    }
}
