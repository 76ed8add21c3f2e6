import AssemblyLine
import ConfigFormat

/// `report --format json`: a report's figures as one object whose `files` are any ``FileListing``'s, written as each
/// page is read; and the smaller objects of `--failed` and `--results`.
enum ReportJSON {
    /// The canonical text of `figures` with `files` streamed in (``JSONValue/writeObject(_:streaming:chunk:to:elements:)``):
    /// the same text one object would give, without holding a million files' rows, tree or text. Each page's objects
    /// are streamed as one element: their text, separated by commas as the elements' are.
    static func write(_ figures: [String: JSONValue], files listing: some FileListing, to write: @escaping (String) -> Void) async throws {
        try await JSONValue.writeObject(figures, streaming: "files", to: write) { emit in
            try await listing.forEachPage { partition, page in
                guard !page.isEmpty else { return }
                let objects = Self.objects(of: page, partition: partition)
                emit { $0 += objects }
            }
        }
        write("\n")
    }

    /// The files of `page` as objects separated by commas: each one's failure (code, message, retryable), index, outputs,
    /// partition in a batch's report, path, relative path, shard, size and state. Written from the page's bytes as
    /// ``JSONValue/serialized`` writes an object (members in key order) without building one, or a string a file:
    /// a value of nine members for each of a million files was most of a report's time.
    static func objects(of page: ReportedFilePage, partition: Partition?) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(page.bytes.count * 2 + page.rows.count * 120)
        var partitionText: [UInt8] = []
        if let partition {
            var name = partition.description
            name.withUTF8 { JSONValue.writeString(utf8: $0, to: &partitionText) }
        }
        page.bytes.withUnsafeBufferPointer { bytes in
            for (position, row) in page.rows.enumerated() {
                text.append(utf8: position > 0 ? ",{\"failure\":" : "{\"failure\":")
                var failureText = ""
                (row.failure.map(failure) ?? .null).write(to: &failureText)
                text.append(utf8: failureText)
                text.append(utf8: ",\"index\":")
                text.append(utf8: String(row.index))
                text.append(utf8: ",\"outputs\":[")
                var first = true
                page.forEachOutput(of: row) { output in
                    if !first { text.append(UInt8(ascii: ",")) }
                    first = false
                    JSONValue.writeString(utf8: UnsafeBufferPointer(rebasing: bytes[output]), to: &text)
                }
                text.append(UInt8(ascii: "]"))
                if partition != nil {
                    text.append(utf8: ",\"partition\":")
                    text.append(contentsOf: partitionText)
                }
                text.append(utf8: ",\"path\":")
                JSONValue.writeString(utf8: UnsafeBufferPointer(rebasing: bytes[row.path]), to: &text)
                text.append(utf8: ",\"relative_path\":")
                JSONValue.writeString(utf8: UnsafeBufferPointer(rebasing: bytes[row.relativePath]), to: &text)
                text.append(utf8: ",\"shard\":")
                text.append(utf8: row.shardIndex.map(String.init) ?? "null")
                text.append(utf8: ",\"size\":")
                text.append(utf8: String(row.size))
                text.append(utf8: ",\"state\":\"")
                text.append(utf8: row.state.rawValue)
                text.append(utf8: "\"}")
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `files` as an array of ``objects(of:partition:)``'s.
    private static func write(_ files: [ReportedFile], to output: inout String) {
        output += "["
        output += objects(of: ReportedFilePage(files), partition: nil)
        output += "]"
    }

    static func failure(_ failure: FailureReason) -> JSONValue {
        .object(["code": .string(failure.code.rawValue), "message": .string(failure.message), "retryable": .bool(failure.isRetryable)])
    }

    /// Counts by state, as an object keyed by the states' raw values.
    static func counts<State: RawRepresentable<String>>(_ counts: [State: Int]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, .integer(Int64($0.value))) }))
    }

    /// The members of a run's report but its `files`.
    static func figures(of report: RunReport) -> [String: JSONValue] {
        let statistics = report.statistics
        var object = RunText.json(report.run).objectValue ?? [:]
        object["shards_by_state"] = counts(report.summary.shardsByState)
        object["files_by_state"] = counts(report.summary.filesByState)
        object["assemblies_created"] = .integer(Int64(statistics.assembliesCreated))
        object["retries"] = .integer(Int64(statistics.retries))
        object["bytes_sent"] = .integer(statistics.bytesSent)
        object["bytes_received"] = .integer(statistics.bytesReceived)
        object["elapsed_ms"] = .integer(report.elapsed.milliseconds)
        object["usage_bytes"] = .integer(statistics.usageBytes)
        object["assemblies_without_usage"] = .integer(Int64(statistics.assembliesWithoutUsage))
        object["queue_seconds"] = .number((statistics.queueSeconds * 1000).rounded() / 1000)
        object["execution_seconds"] = .number((statistics.executionSeconds * 1000).rounded() / 1000)
        object["bytes_sent_per_second"] = .integer(Int64(report.rate(Double(statistics.bytesSent))))
        object["files_done_per_second"] = .number((report.rate(Double(report.summary.filesByState[.done] ?? 0)) * 100).rounded() / 100)
        object["shard_list"] = .array(report.shards.map { shard in
            .object([
                "index": .integer(Int64(shard.index)), "state": .string(shard.state.rawValue),
                "files": .integer(Int64(shard.fileCount)), "bytes": .integer(shard.bytes),
                "attempts": .integer(Int64(shard.attemptCount)), "failure": shard.failure.map(failure) ?? .null,
                "duration_ms": statistics.shardDurations[shard.index].map { .integer($0.milliseconds) } ?? .null,
            ])
        })
        object["replays"] = .array(report.replays.map { attempt in
            .object([
                "shard": .integer(Int64(attempt.shardIndex)), "attempt": .integer(Int64(attempt.number)),
                "assembly_id": .string(attempt.assemblyID.rawValue),
                "parent_assembly_id": attempt.parentAssemblyID.map { .string($0.rawValue) } ?? .null,
                "outcome": .string(attempt.outcome.rawValue), "replayed": .bool(attempt.createdAt != nil),
            ])
        })
        object["failures"] = .array(report.failuresByCode.map { group in
            .object(["code": .string(group.code), "files": .array(group.files.map { .string($0.file.relativePath) })])
        })
        return object
    }

    /// The members of a batch's report but its `files`: the totals and each part's run.
    static func figures(of batch: BatchReport) -> [String: JSONValue] {
        [
            "batch": .string(batch.batch.rawValue), "partitions": .integer(Int64(batch.count)),
            "missing": .array(batch.missing.map { .integer(Int64($0)) }),
            "unfinished": .array(batch.unfinished.map { .string($0.run.partition.description) }),
            "files_by_state": counts(batch.filesByState),
            "shards_by_state": counts(batch.shardsByState),
            "bytes": .integer(batch.sum { $0.run.bytes }), "bytes_sent": .integer(batch.sum { $0.statistics.bytesSent }),
            "bytes_received": .integer(batch.sum { $0.statistics.bytesReceived }),
            "assemblies_created": .integer(batch.sum { Int64($0.statistics.assembliesCreated) }),
            "retries": .integer(batch.sum { Int64($0.statistics.retries) }),
            "runs": .array(batch.parts.map { part in
                var run = RunText.json(part.run).objectValue ?? [:]
                run["state_dir"] = .string(part.stateDirectory)
                return .object(run)
            }),
        ]
    }

    /// `--failed --format json`: the run, and each failed file and shard with its code, message and whether a resume
    /// may help; one object, its members in key order as ``JSONValue/serialized`` writes them.
    static func failed(_ report: RunReport) -> String {
        let files = report.filesWithOutputs
        var text = "{\"failed_files\":"
        write(files.filter { $0.record.state == .failed }, to: &text)
        text += ",\"failed_shards\":"
        JSONValue.array(report.shards.filter { $0.state == .failed }.map { shard in
            .object(["index": .integer(Int64(shard.index)), "failure": shard.failure.map(failure) ?? .null])
        }).write(to: &text)
        text += ",\"known_bad_files\":"
        write(files.filter { $0.record.state == .knownBad }, to: &text)
        text += ",\"run_id\":"
        JSONValue.writeString(report.run.id.rawValue, to: &text)
        text += ",\"state\":"
        JSONValue.writeString(report.run.state.rawValue, to: &text)
        return text + "}"
    }

    /// `--results --format json`: the current results as objects.
    static func results(_ report: RunReport) -> JSONValue {
        let inputs = report.inputPaths
        return .array(report.results.map { record in
            .object([
                "file": record.result.fileIndex.map { .integer(Int64($0)) } ?? .null, "input": .string(ResultText.input(of: record, among: inputs)),
                "step": .string(record.result.step), "state": .string(ResultText.state(of: record)),
                "size": record.result.size.map { .integer($0) } ?? .null, "md5": record.result.md5.map { .string($0) } ?? .null,
                "checked": .string(ResultText.checked(record)), "where": .string(record.destination),
                "temporary": .bool(record.result.isTemporary), "fetches": .integer(Int64(record.fetches)),
            ])
        })
    }
}
