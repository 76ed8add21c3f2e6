import Foundation

/// One child launched at a time by a test process, its pipes made under the same lock.
///
/// A child inherits every descriptor its parent holds without close-on-exec when it starts: Foundation's pipes, and
/// the socket by which it learns that a child ended, are such descriptors until the launch of their own child closes
/// the parent's copies. A server started by one test while another test's run was being launched held that run's
/// pipes and socket for as long as it served: the run, ended, was never reaped, and its test waited for the end of
/// its output for 8 minutes (make test, 2026-12-05). Every launch that makes pipes makes them, and runs, here.
package enum ChildLaunch {
    private static let lock = NSLock()

    /// Runs `launch` (which makes the child's pipes and calls `run()`) while no other child is being launched.
    package static func locked<T>(_ launch: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try launch()
    }
}
