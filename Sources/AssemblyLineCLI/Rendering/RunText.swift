import AssemblyLine
import ConfigFormat
import Foundation

/// How runs read in tables and JSON: one place for `runs` and `report`.
enum RunText {
    /// `2026-11-30 21:05:01Z`.
    static func time(_ date: Date) -> String {
        let text = UTCDateTime(date).iso8601Text
        return String(text.prefix(19)).replacingOccurrences(of: "T", with: " ") + "Z"
    }

    /// A file state as people read it: `no result` for `no_result`.
    static func label(_ state: FileState) -> String {
        state.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    /// A run's state, or for a batch's parts how many are in each state (`3 finished, 1 failed, 1 missing`).
    static func state(of states: [RunState], missing: Int) -> String {
        if states.count == 1, missing == 0, let state = states.first { return state.rawValue }
        let counts = RunState.allCases.compactMap { state in
            let count = states.filter { $0 == state }.count
            return count > 0 ? "\(count) \(state.rawValue)" : nil
        }
        return (counts + (missing > 0 ? ["\(missing) missing"] : [])).joined(separator: ", ")
    }

    static func table(_ runs: [RunRecord]) -> String {
        let header = ["RUN", "STATE", "SHARDS", "FILES", "SKIPPED", "BYTES", "STARTED", "NAME"]
        let rows = runs.map { run in
            [run.id.rawValue, run.state.rawValue, String(run.shardCount), String(run.fileCount),
             String(run.skippedCount), ByteCountText.format(run.bytes), time(run.createdAt), run.manifestName]
        }
        return TextTable.render(header: header, rows: rows, rightAligned: [2, 3, 4, 5])
    }

    /// The run's Template in one line: the account's ID and the SHA-256 of the file's content, as far as the run knows them.
    static func template(of run: RunRecord) -> String? {
        switch (run.templateID, run.templateSHA256) {
        case let (id?, hash?): "\(id), content sha256 \(hash)"
        case let (nil, hash?): "its file's content sha256 \(hash)"
        case let (id?, nil): id
        case (nil, nil): nil
        }
    }

    static func json(_ run: RunRecord) -> JSONValue {
        .object([
            "id": .string(run.id.rawValue),
            "name": .string(run.manifestName),
            "manifest": .string(run.manifestPath),
            "state": .string(run.state.rawValue),
            "created_at": .string(UTCDateTime(run.createdAt).iso8601Text),
            "updated_at": .string(UTCDateTime(run.updatedAt).iso8601Text),
            "finished_at": run.finishedAt.map { .string(UTCDateTime($0).iso8601Text) } ?? .null,
            "shards": .integer(Int64(run.shardCount)),
            "files": .integer(Int64(run.fileCount)),
            "skipped": .integer(Int64(run.skippedCount)),
            "bytes": .integer(run.bytes),
            "batch": run.batch.map { .string($0.rawValue) } ?? .null,
            "partition": .string(run.partition.description),
            "template_id": run.templateID.map { .string($0) } ?? .null,
            "template_sha256": run.templateSHA256.map { .string($0) } ?? .null,
        ])
    }
}
