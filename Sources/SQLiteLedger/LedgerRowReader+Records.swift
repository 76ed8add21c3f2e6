import AssemblyLine

extension LedgerRowReader {
    static let runColumns = """
        id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at, finished_at,
        shard_count, file_count, skipped_count, bytes, batch_id, partition_index, partition_count, job_key, inputs_key, superseded_by,
        template_id, template_sha256
        """

    static let shardColumns = """
        shard_index, state, file_count, bytes, attempt_count, error_code, error_message, retryable, updated_at, fields
        """

    static let fileColumns = """
        file_index, shard_index, path, relative_path, size, modified_ns, state, error_code, error_message, retryable
        """

    static let attemptColumns = """
        shard_index, attempt, assembly_id, outcome, started_at, assembly_url, tus_url, created_at, completed_at,
        error_code, error_message, retryable, failed_executing, parent_assembly_id
        """

    /// The columns of `results r` (the alias is theirs).
    static let resultColumns = """
        r.id, r.shard_index, r.attempt, r.file_index, r.step, r.remote_id, r.name, r.url, r.size, r.md5, r.mime, r.width, r.height,
        r.temporary, r.state, r.output_path, r.downloaded_at, r.fetches, r.source,
        (SELECT group_concat(i.file_index) FROM result_inputs i WHERE i.result_id = r.id)
        """

    static let eventColumns = "id, shard_index, at, kind, message"

    static let uploadColumns = """
        shard_index, attempt, file_index, upload_url, upload_offset, upload_length, created_at, updated_at
        """

    mutating func runRecord() throws -> RunRecord {
        RunRecord(id: try runID(), manifestPath: try text(), manifestName: try text(),
                  recipeFingerprint: try text(), state: try value(RunState.self), createdAt: try date(),
                  updatedAt: try date(), finishedAt: try optionalDate(), shardCount: try int(),
                  fileCount: try int(), skippedCount: try int(), bytes: try integer(), batch: try batchID(),
                  partition: try partition(), jobKey: try text(), inputsKey: try text(), supersededBy: try optionalRunID(),
                  templateID: optionalText(), templateSHA256: optionalText())
    }

    mutating func shardRecord() throws -> ShardRecord {
        ShardRecord(index: try int(), state: try value(ShardState.self), fileCount: try int(),
                    bytes: try integer(), attemptCount: try int(), failure: failure(), updatedAt: try date(), fieldsJSON: optionalText())
    }

    mutating func fileRecord() throws -> FileRecord {
        let index = try int()
        let shard = optionalInt()
        let file = PlannedFile(path: try text(), relativePath: try text(), size: try integer(),
                               modifiedNanoseconds: try integer())
        return FileRecord(index: index, shardIndex: shard, file: file, state: try value(FileState.self),
                          failure: failure())
    }

    /// A file of ``fileColumns`` added to `page`, its texts copied from the row: a report page's million files make no strings.
    mutating func appendFile(to page: inout ReportedFilePage) throws {
        let index = try int()
        let shard = optionalInt()
        let (path, relativePath) = (try bytes(), try bytes())
        page.append(index: index, shardIndex: shard, path: path, relativePath: relativePath, size: try integer(),
                    modifiedNanoseconds: try integer(), state: try value(FileState.self), failure: failure())
    }

    mutating func attemptRecord() throws -> AttemptRecord {
        AttemptRecord(shardIndex: try int(), number: try int(), assemblyID: try assemblyID(),
                      outcome: try value(AttemptOutcome.self), startedAt: try date(),
                      assemblyURL: optionalText(), tusURL: optionalText(), createdAt: try optionalDate(),
                      completedAt: try optionalDate(), failure: failure(), failedExecuting: try integer() == 1,
                      parentAssemblyID: try optionalAssemblyID())
    }

    mutating func resultRecord() throws -> ResultRecord {
        let id = try integer()
        let shard = try int()
        let attempt = try int()
        let (fileIndex, step, remoteID, name) = (optionalInt(), try text(), optionalText(), try text())
        let (url, size, md5, mime) = (optionalText(), optionalInteger(), optionalText(), optionalText())
        let (width, height, temporary) = (optionalInt(), optionalInt(), try integer() == 1)
        let state = try value(ResultState.self)
        let path = optionalText()
        let delivery: NewResult.Delivery = switch (state, path) {
        case let (_, path?): .download(to: path)
        case (.exported, nil): .exported
        default: .recorded
        }
        let (downloadedAt, fetches) = (try optionalDate(), try int())
        let source: ResultSource = switch (try value(ResultSource.Kind.self), fileIndex) {
        case let (.file, index?): .file(index)
        case (.several, _): .several(Self.inputs(listed: optionalText()))
        default: .unmatched
        }
        let result = NewResult(source: source, step: step, remoteID: remoteID, name: name, url: url, size: size,
                               md5: md5, mime: mime, width: width, height: height, isTemporary: temporary, delivery: delivery)
        return ResultRecord(id: id, shardIndex: shard, attempt: attempt, result: result,
                            downloadedAt: downloadedAt, fetches: fetches)
    }

    /// The file indices of `group_concat(i.file_index)` over a result's `result_inputs`, in order.
    static func inputs(listed text: String?) -> [Int] {
        (text ?? "").split(separator: ",").compactMap { Int($0) }.sorted()
    }

    mutating func eventRecord() throws -> EventRecord {
        EventRecord(id: try integer(), shardIndex: optionalInt(), at: try date(), kind: try value(LedgerEventKind.self),
                    message: try text())
    }

    mutating func uploadRecord() throws -> UploadRecord {
        UploadRecord(shardIndex: try int(), attempt: try int(), fileIndex: try int(), url: try text(),
                     offset: try integer(), length: try integer(), createdAt: try date(), updatedAt: try date())
    }
}
