import Foundation

/// A process that holds an `flock` on a file or directory (`flock(1)`) until this value goes: the lock another process finds taken.
///
/// The holder's shell waits on its standard input, which only this value writes to: closing it
/// ends the holder and frees the lock, and nothing of it outlives the test (nor keeps the test
/// runner's pipes open).
package final class FlockHolder {
    private let process = Process()
    private let input = ChildLaunch.pipe()

    /// Why the holder could not take the lock.
    package struct NotHeld: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns once the lock is held: `flock(1)` runs the command that says so only after it took it.
    package init(_ path: String) async throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = [path, "sh", "-c", "echo held; read _"]
        let said = ChildLaunch.pipe()
        process.standardOutput = said
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try ChildLaunch.run(process)
        let held = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var text = Data()
                while !String(decoding: text, as: UTF8.self).contains("held") {
                    let more = said.fileHandleForReading.availableData
                    guard !more.isEmpty else { return continuation.resume(returning: false) }
                    text.append(more)
                }
                continuation.resume(returning: true)
            }.start()
        }
        guard held else { throw NotHeld(description: "flock \(path) ended without taking the lock") }
    }

    deinit {
        release()
    }

    /// Lets the lock go: the holder reads the end of its input and exits.
    package func release() {
        try? input.fileHandleForWriting.close()
    }
}
