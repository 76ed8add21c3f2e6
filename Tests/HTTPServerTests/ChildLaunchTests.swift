import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The test processes' children hold none of each other's pipes (`ChildLaunch`), the `curl`s of these suites included.
@Suite struct ChildLaunchTests {
    /// Starts `arguments` with every descriptor of this process that is not close-on-exec, as Foundation starts a
    /// child whose launch began before another thread made a pipe.
    static func spawnInheritingEverything(_ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let failed = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard failed == 0 else { throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EINVAL) }
        return pid
    }

    /// The `pipe:[inode]` names of the descriptors process `pid` holds.
    static func pipesHeld(by pid: pid_t) throws -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        return Set(try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { descriptor in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(descriptor)")
        }.filter { $0.hasPrefix("pipe:") })
    }

    @Test func aChildStartedWhileAnotherChildsPipeIsOpenHoldsNoEndOfItAndItsReaderSeesTheEnd() async throws {
        let pipe = ChildLaunch.pipe()
        var status = stat()
        #expect(fstat(pipe.fileHandleForReading.fileDescriptor, &status) == 0)
        let name = "pipe:[\(status.st_ino)]"
        // Given a long-lived child that inherits what it can, as a server another test starts at that moment
        let bystander = try Self.spawnInheritingEverything(["/bin/sleep", "30"])
        defer {
            kill(bystander, SIGKILL)
            waitpid(bystander, nil, 0)
        }
        // Then it holds neither end of the pipe
        try #require(!Self.pipesHeld(by: bystander).contains(name), "the bystander inherited \(name)")
        // And the child given the pipe writes into it, and its reader sees the end once that child ends
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/echo")
        writer.arguments = ["ended"]
        writer.standardOutput = pipe
        try ChildLaunch.run(writer)
        let output = try await offThePool { pipe.fileHandleForReading.readDataToEndOfFile() }
        #expect(String(decoding: output, as: UTF8.self) == "ended\n")
    }
}
