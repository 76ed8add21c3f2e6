import AssemblyLine
import ConfigFormat

/// `report --history` as a table or JSON: a row (or an object) per night.
enum HistoryText {
    /// The file states a night's row counts, in its columns' order.
    static let columns: [FileState] = [.done, .failed, .skipped, .knownBad]

    static func table(_ history: RunHistory) -> String {
        let rows = history.nights.map { night in
            [RunText.time(night.start), night.label, state(night)]
                + columns.map { String(night.files($0)) }
                + [DurationText.format(night.elapsed), ByteCountText.format(night.bytesSent), usage(night), night.name]
        }
        return TextTable.render(header: ["STARTED", "RUN", "STATE", "DONE", "FAILED", "SKIPPED", "KNOWN BAD", "ELAPSED", "UP", "USAGE", "NAME"],
                                rows: rows, rightAligned: [3, 4, 5, 6, 7, 8, 9])
    }

    /// A night's state, or for a batch's parts how many are in each state.
    static func state(_ night: RunHistory.Night) -> String {
        RunText.state(of: night.runs.map(\.state), missing: night.missing)
    }

    /// A night's usage, with a `+` when some of its completed Assemblies did not say theirs.
    static func usage(_ night: RunHistory.Night) -> String {
        ByteCountText.format(night.usageBytes) + (night.assembliesWithoutUsage > 0 ? "+" : "")
    }

    /// `--format json`: an array of nights, each with every file state counted (0 included).
    static func json(_ history: RunHistory) -> JSONValue {
        .array(history.nights.map { night in
            .object([
                "started_at": .string(UTCDateTime(night.start).iso8601Text),
                "finished_at": night.end.map { .string(UTCDateTime($0).iso8601Text) } ?? .null,
                "elapsed_ms": .integer(night.elapsed.milliseconds),
                "name": .string(night.name),
                "manifests": .array(Array(Set(night.runs.map(\.manifestPath))).sorted().map(JSONValue.string)),
                "runs": .array(night.runs.map { .string($0.id.rawValue) }),
                "batch": night.runs.first?.batch.map { .string($0.rawValue) } ?? .null,
                "partitions": .integer(Int64(night.partitionCount)),
                "missing_partitions": .integer(Int64(night.missing)),
                "state": .string(state(night)),
                "finished": .bool(night.isFinished),
                "files_by_state": .object(Dictionary(uniqueKeysWithValues: FileState.allCases.map { ($0.rawValue, .integer(Int64(night.files($0)))) })),
                "bytes_planned": .integer(night.bytesPlanned),
                "bytes_sent": .integer(night.bytesSent),
                "bytes_received": .integer(night.bytesReceived),
                "usage_bytes": .integer(night.usageBytes),
                "assemblies_without_usage": .integer(Int64(night.assembliesWithoutUsage)),
                "assemblies_created": .integer(Int64(night.assembliesCreated)),
                "retries": .integer(Int64(night.retries)),
            ])
        })
    }
}
