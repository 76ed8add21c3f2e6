package import Foundation

/// Starts a test's child processes so that no child holds the pipes of another.
///
/// Foundation's `Process.run()` on Linux closes in the child the descriptors its parent had open when it began to
/// build the launch (3 up to the highest then open); one that another thread opens meanwhile, above that, the child
/// inherits, and `Pipe`s are not close-on-exec. A child holding another's pipe keeps that pipe's reader from seeing
/// the end of the output while it lives. Seen: a server started beside another test's run held the run's pipes, and
/// its test waited 8 minutes (make test, 2026-12-05); in one run of the unit suite, `test_server.py`s held the pipes of
/// dozens of other children (`/proc/PID/fd`). A moto server lives as long as the test process: a `curl`'s output pipe
/// it held would be read for ever (CI's make test hung in the unit suite that day, last seen in HTTPServerTests).
///
/// So every pipe a child is given is made by ``pipe()``, close-on-exec (the child gets its end as its standard input,
/// output or error by `dup2`, a copy without the flag), and every child starts through ``run(_:)``, both under one
/// lock. `check-imports.py` refuses a `Pipe()` or a `Process` started anywhere else.
package enum ChildLaunch {
    private static let lock = NSLock()

    /// A pipe for a child's standard input, output or error, which no other child inherits.
    package static func pipe() -> Pipe {
        lock.withLock {
            let pipe = Pipe()
            for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
            return pipe
        }
    }

    /// Starts `process` while no other child is starting and no pipe is being made.
    package static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
