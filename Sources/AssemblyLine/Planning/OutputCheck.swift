import Foundation
import Synchronization

/// Whether recorded outputs are still on disk as they were made: present, of their recorded size,
/// (with checksums) of their recorded MD5, and (for a manifest) in its output directory.
///
/// An incremental run skips a file only when every output it made passes; `check` lists what does not.
package struct OutputCheck: Sendable {
    /// What is wrong with one output.
    package enum Problem: Sendable, Hashable, CustomStringConvertible {
        case missing
        case resized(recorded: Int64, found: Int64)
        case altered(recorded: String, found: String)
        case unreadable(reason: String)
        /// Not under the output directory the manifest writes into (a copy of the job adopted, a partition of another split).
        case elsewhere(directory: String)

        /// `missing`, `changed` or `unreadable`: the first column of `check`.
        package var kind: String {
            switch self {
            case .missing: "missing"
            case .resized, .altered: "changed"
            case .unreadable: "unreadable"
            case .elsewhere: "elsewhere"
            }
        }

        package var description: String {
            switch self {
            case .missing: "not on disk"
            case let .resized(recorded, found): "\(found) bytes, recorded \(recorded)"
            case let .altered(recorded, found): "MD5 \(found), recorded \(recorded)"
            case let .unreadable(reason): reason
            case let .elsewhere(directory): "not under \(directory), where the outputs go now"
            }
        }
    }

    /// An output that did not pass, and why.
    package struct Finding: Sendable, Hashable {
        package var output: RecordedOutput
        package var problem: Problem
    }

    /// Computes MD5s when checksums are asked for; nil checks presence and size only.
    let digester: (any FileDigester)?
    /// Whether MD5s are checked: what a night reads of the done index.
    var checksums: Bool { digester != nil }
    /// The output directory every output must lie under; nil for any place.
    private(set) var directory: String?

    package init(checksums digester: (any FileDigester)?) {
        self.digester = digester
    }

    /// The same check, with outputs outside `directory` a problem: what a manifest's next run relies on are outputs where
    /// it writes them; a file whose outputs were made elsewhere is not done for it.
    package func within(_ directory: String) -> OutputCheck {
        var check = self
        check.directory = directory
        return check
    }

    /// The outputs that are missing or changed, in the order given.
    package func findings(_ outputs: [RecordedOutput]) -> [Finding] {
        var cursor = DirectoryCursor()
        return findings(outputs, from: &cursor)
    }

    private func findings(_ outputs: [RecordedOutput], from cursor: inout DirectoryCursor) -> [Finding] {
        outputs.compactMap { output in problem(of: output, from: &cursor).map { Finding(output: output, problem: $0) } }
    }

    /// The findings of each file's outputs that has some, by the file's position in `files`, checked on
    /// every core (a night's check is one `stat`, or one MD5, an output).
    package func findings(ofEach files: [[RecordedOutput]]) -> [Int: [Finding]] {
        let stripes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count / 1_000))
        let found = Mutex<[Int: [Finding]]>([:])
        DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
            var mine: [Int: [Finding]] = [:], cursor = DirectoryCursor()
            for index in stride(from: stripe, to: files.count, by: stripes) {
                let findings = findings(files[index], from: &cursor)
                if !findings.isEmpty { mine[index] = findings }
            }
            found.withLock { $0.merge(mine) { first, _ in first } }
        }
        return found.withLock { $0 }
    }

    private func problem(of output: RecordedOutput, from cursor: inout DirectoryCursor) -> Problem? {
        if let directory, !PathText.isStrictly(output.path, under: directory) { return .elsewhere(directory: directory) }
        guard let info = cursor.status(of: output.path), (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        if let size = output.size, Int64(info.st_size) != size {
            return .resized(recorded: size, found: Int64(info.st_size))
        }
        guard let digester, let recorded = output.md5 else { return nil }
        do {
            let found = try digester.md5Hex(ofFile: output.path)
            return found == recorded.lowercased() ? nil : .altered(recorded: recorded, found: found)
        } catch {
            return .unreadable(reason: "\(error)")
        }
    }
}
