package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A long-running child of the built binary (`serve`, `sign-server`): started, its address read, stopped by signal.
///
/// Its output goes to two files beside the test's data, so a chatty server never blocks on a full
/// pipe. Waiting for its exit blocks on a semaphore signalled by the termination handler; nothing
/// spins (`Process.waitUntilExit` polls a run loop on Linux).
package final class ChildServer {
    package let process: Process
    package let stdoutFile: URL
    package let stderrFile: URL
    private let exited = DispatchSemaphore(value: 0)
    private var stopped = false

    /// Starts `assemblyline ARGUMENTS` in `directory`; its output goes to `<name>.out` and `<name>.err` there.
    package init(_ arguments: [String], in directory: URL, name: String, environment: [String: String] = [:]) throws {
        stdoutFile = directory.appendingPathComponent("\(name).out")
        stderrFile = directory.appendingPathComponent("\(name).err")
        for file in [stdoutFile, stderrFile] {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var base = ["PATH": "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        process.environment = base.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        self.process = process
        try ChildLaunch.run(process)
    }

    deinit {
        stop()
    }

    /// What it printed on standard output so far.
    package var output: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }

    /// What it printed on standard error so far.
    package var errors: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// The `http://HOST:PORT` of its first line `listening on ...`, once printed (10 s at most).
    package func baseURL() async throws -> String {
        for _ in 0..<500 {
            if let line = output.split(separator: "\n").first, line.hasPrefix("listening on ") {
                return String(line.dropFirst("listening on ".count))
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(message: "\(process.arguments?.first ?? "server") printed no address: \(output) \(errors)")
    }

    /// The port of ``baseURL()``.
    package func port() async throws -> Int {
        let url = try await baseURL()
        guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw Failure(message: "no port in \(url)")
        }
        return port
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after 10 s); returns the exit status, nil if it was already stopped.
    @discardableResult
    package func stop() -> Int32? {
        guard !stopped else { return nil }
        stopped = true
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
        if exited.wait(timeout: .now() + 10) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        return process.terminationStatus
    }

    /// A child server that did not start as expected.
    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
