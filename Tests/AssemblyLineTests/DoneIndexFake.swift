import AssemblyLine
import Synchronization

/// Sets of the done index in memory, paged in path order as the ledger pages them: what a test's night reads.
struct DoneIndexFake: DoneIndexPages {
    /// Each job key's files; the recipe is not told apart.
    let sets: [String: [FileIdentity: CompletedFile]]
    /// Whether each page was asked for with its outputs' MD5s, in turn.
    let md5sAsked = Asks()

    /// What the pages were asked for with.
    final class Asks: Sendable {
        private let pages = Mutex<[Bool]>([])

        /// Whether each page was asked for with MD5s, in turn.
        var all: [Bool] { pages.withLock { $0 } }

        func append(_ md5s: Bool) {
            pages.withLock { $0.append(md5s) }
        }
    }

    func completedFiles(jobKey: String, recipeFingerprint: String, after cursor: FileIdentity?, limit: Int, md5s: Bool) async throws -> [DoneIndexRow] {
        md5sAsked.append(md5s)
        let rows = (sets[jobKey] ?? [:]).map { DoneIndexRow(identity: $0.key, file: md5s ? $0.value : Self.withoutMD5s($0.value)) }
            .filter { row in cursor.map { FileIdentity.order($0, row.identity) < 0 } ?? true }
            .sorted { FileIdentity.order($0.identity, $1.identity) < 0 }
        return Array(rows.prefix(limit))
    }

    private static func withoutMD5s(_ file: CompletedFile) -> CompletedFile {
        var file = file
        file.outputs = file.outputs.map { RecordedOutput(path: $0.path, size: $0.size, md5: nil) }
        return file
    }
}
