package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The locks that keep two runs apart (cron overlaps): one of a manifest in one state directory, and
/// one on the output directory, so that a run of another state directory cannot write into it at once
/// (the partitions of a batch share that one: their files are apart).
///
/// An `flock` on `<state_dir>/locks/<name>-<hash of the job's key>.lock` (``ManifestJob``: a moved or copied
/// manifest of the same job takes the same lock, two jobs that share a name do not), holding the holder's
/// PID and run ID, and one on `output.dir` itself (``DirectoryLock``). The kernel drops the locks
/// when their process dies, so a dead holder's lock is simply taken over.
package final class RunLock {
    private let descriptor: Int32
    private let output: DirectoryLock
    package let path: String

    /// Takes the lock at once or throws ``RunSessionError/locked(path:holder:)`` naming the holder; never waits.
    package init(stateDirectory: String, manifest: Manifest) throws(RunSessionError) {
        let folder = stateDirectory + "/locks"
        if let reason = DirectoryCreation.make(folder) {
            throw .stateDirectoryUnusable(path: stateDirectory, reason: reason)
        }
        path = Self.path(stateDirectory: stateDirectory, manifestName: manifest.name, jobKey: manifest.job.key)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .lockUnopenable(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw .locked(path: path, holder: holder)
        }
        do {
            output = try DirectoryLock(manifest.output.dir, shared: !manifest.partition.isWhole)
        } catch {
            close(descriptor)
            switch error {
            case .unusable(let reason): throw .outputUnusable(path: manifest.output.dir, reason: reason)
            case .held: throw .locked(path: manifest.output.dir, holder: "a run of another state directory writes into it")
            }
        }
    }

    /// Lets both locks go now, when the work under them ends: the last reference to this value may go later, on
    /// another thread (the task that ran a closure holding it), after the caller has already returned.
    package func release() {
        flock(descriptor, LOCK_UN)
        output.release()
    }

    deinit {
        close(descriptor)
    }

    /// True when a process holds the lock file at `path`.
    package static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0
    }

    /// A run lock of `stateDirectory` that a process holds, if any: upkeep that changes the ledger waits for no run.
    package static func heldLock(inStateDirectory stateDirectory: String) -> String? {
        let folder = "\(stateDirectory)/locks"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".lock") {
            if isHeld("\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }

    /// Where the lock of a job's runs in a state directory is.
    package static func path(stateDirectory: String, manifestName: String, jobKey: String) -> String {
        "\(stateDirectory)/locks/\(manifestName)-\(String(FNVHash.of(jobKey), radix: 16)).lock"
    }

    /// Where the lock of `run`'s job in a state directory is.
    package static func path(stateDirectory: String, of run: RunRecord) -> String {
        path(stateDirectory: stateDirectory, manifestName: run.manifestName, jobKey: run.jobKey)
    }

    /// The PID of the process that holds the lock at `path` for `run`, or nil when no live process holds it for that run.
    package static func holder(at path: String, of run: RunID) -> pid_t? {
        guard isHeld(path) else { return nil }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard text.hasPrefix("run \(run), PID "),
              let pid = pid_t(text.dropFirst("run \(run), PID ".count).trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return pid
    }

    /// Writes who holds the lock, for the next run's message.
    package func record(runID: RunID) {
        let text = "run \(runID), PID \(getpid())\n"
        ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }
}
