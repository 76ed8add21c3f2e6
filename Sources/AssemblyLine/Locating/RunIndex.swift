import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where each run's ledger is, so that a run ID alone finds its run from any directory (cron included).
///
/// One line per run, appended when the run starts: `RUN_ID<TAB>STATE_DIR`, in `runs.tsv` under
/// `$XDG_STATE_HOME/assemblyline`, else `~/.local/state/assemblyline` when HOME exists (it is never
/// created); when that cannot be written (no home, a read-only one), under `$TMPDIR/assemblyline-<uid>`
/// (else `/tmp/assemblyline-<uid>`).
/// A line of up to a few hundred bytes is appended with one `write(2)` on an `O_APPEND` file, so
/// runs started at once never mix their lines. Lookups read every place, the newest line winning.
package struct RunIndex: Sendable {
    /// The index files, the preferred first.
    package let paths: [String]

    package init(environment: [String: String]) {
        var directories: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            directories.append("\(state)/assemblyline")
        } else if let home = environment["HOME"], home.hasPrefix("/"), Self.isDirectory(home) {
            directories.append("\(home)/.local/state/assemblyline")
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        directories.append("\(temporary)/assemblyline-\(getuid())")
        paths = directories.map { "\($0)/runs.tsv" }
    }

    /// Whether `path` is a directory that exists: a HOME that does not (`/nonexistent`, cron as a system
    /// user) is never created; the temporary directory is used instead.
    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Records where `run` is; returns nil, or why it could not be recorded (for a warning: the run goes on).
    package func record(_ run: RunID, stateDirectory: String) -> String? {
        guard !stateDirectory.contains("\t"), !stateDirectory.contains("\n") else {
            return "the state directory's path holds a tab or a line break"
        }
        let line = Array("\(run.rawValue)\t\(stateDirectory)\n".utf8)
        var reasons: [String] = []
        for path in paths {
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                reasons.append("\(directory): cannot create it")
                continue
            }
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                reasons.append("\(path): \(String(cString: strerror(errno)))")
                continue
            }
            let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            if written == line.count { return nil }
            reasons.append("\(path): \(String(cString: strerror(errno)))")
        }
        return reasons.joined(separator: "; ")
    }

    /// The state directory recorded for `run`, or for the newest run when `run` is nil, with that run's ID.
    package func find(_ run: RunID?) -> (run: RunID, stateDirectory: String)? {
        var newest: (run: RunID, stateDirectory: String)?
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: "\t", maxSplits: 1)
                guard fields.count == 2, let id = RunID(String(fields[0])) else { continue }
                if let run, id != run { continue }
                if newest.map({ id >= $0.run }) ?? true { newest = (id, String(fields[1])) }
            }
        }
        return newest
    }
}
