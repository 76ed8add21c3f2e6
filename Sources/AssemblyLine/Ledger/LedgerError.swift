import Foundation

/// A request the ledger refuses because it breaks the run's rules, not because storage failed.
package enum LedgerError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidRunID(String, reason: String)
    case invalidAssemblyID(String, reason: String)
    case runNotFound(RunID)
    case shardNotFound(RunID, shard: Int)
    case fileNotFound(RunID, file: Int)
    case fileNotInShard(RunID, file: Int, shard: Int)
    case resultNotFound(RunID, result: Int64)
    case illegalShardTransition(RunID, shard: Int, from: ShardState, to: ShardState)
    case illegalRunTransition(RunID, from: RunState, to: RunState)
    /// A new attempt may only start from `planned`.
    case attemptNotAllowed(RunID, shard: Int, state: ShardState)
    /// The transition needs the shard's current attempt, and none is open.
    case noOpenAttempt(RunID, shard: Int, transition: ShardState)
    /// `downloaded` while results of the completing attempt are not yet downloaded.
    case resultsPending(RunID, shard: Int, count: Int)
    case attemptNotFound(RunID, shard: Int, attempt: Int)
    /// No tus upload of the file is recorded for the attempt under that URL.
    case uploadNotFound(RunID, shard: Int, attempt: Int, file: Int)
    case invalidUploadLength(RunID, file: Int, length: Int64)
    /// A tus offset smaller than the one recorded: offsets only grow within one upload.
    case uploadOffsetBackwards(RunID, file: Int, recorded: Int64, offset: Int64)
    case uploadOffsetBeyondLength(RunID, file: Int, offset: Int64, length: Int64)

    package var description: String {
        switch self {
        case let .invalidRunID(text, reason):
            "run ID '\(Self.clipped(text))': \(reason)"
        case let .invalidAssemblyID(text, reason):
            "Assembly ID '\(Self.clipped(text))': \(reason)"
        case let .runNotFound(run):
            "run \(run): not in the ledger"
        case let .shardNotFound(run, shard):
            "run \(run), shard \(shard): not in the ledger"
        case let .fileNotFound(run, file):
            "run \(run), file \(file): not in the ledger"
        case let .fileNotInShard(run, file, shard):
            "run \(run), shard \(shard): file \(file) belongs to another shard"
        case let .resultNotFound(run, result):
            "run \(run), result \(result): not in the ledger"
        case let .illegalShardTransition(run, shard, from, to):
            "run \(run), shard \(shard): cannot go from \(from) to \(to) (expected one of: "
                + Self.list(from.successors.map(\.rawValue)) + ")"
        case let .illegalRunTransition(run, from, to):
            "run \(run): cannot go from \(from) to \(to)"
                + (from == .finished ? " (a finished run is final)" : " (expected running)")
        case let .attemptNotAllowed(run, shard, state):
            "run \(run), shard \(shard): a new attempt starts only from planned, not \(state)"
        case let .noOpenAttempt(run, shard, transition):
            "run \(run), shard \(shard): \(transition) needs an open attempt; record the attempt first"
        case let .resultsPending(run, shard, count):
            "run \(run), shard \(shard): cannot be downloaded with \(count) result(s) not yet downloaded"
        case let .attemptNotFound(run, shard, attempt):
            "run \(run), shard \(shard): attempt \(attempt) is not in the ledger"
        case let .uploadNotFound(run, shard, attempt, file):
            "run \(run), shard \(shard), file \(file): no tus upload at that URL is recorded for attempt \(attempt)"
        case let .invalidUploadLength(run, file, length):
            "run \(run), file \(file): tus upload length \(length), expected 0 or more bytes"
        case let .uploadOffsetBackwards(run, file, recorded, offset):
            "run \(run), file \(file): tus offset \(offset) is behind the recorded \(recorded) (offsets only grow)"
        case let .uploadOffsetBeyondLength(run, file, offset, length):
            "run \(run), file \(file): tus offset \(offset) is past the upload's length \(length)"
        }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none, it is final" : names.sorted().joined(separator: ", ")
    }

    /// User input echoed in a message, cut short so that a pasted blob stays one readable line.
    private static func clipped(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 64 ? String(flat.prefix(64)) + "..." : flat
    }
}
