import AssemblyLine
import ConfigFormat
import Foundation

/// Renders an Assembly's status JSON: the fields official clients read (transloadit-api.md §3).
///
/// `ok` is the state's code, or `null` with `error` set when execution failed; both URLs of the
/// Assembly, `tus_url` and every file URL point back at this service.
struct ServiceAssemblyStatus {
    let record: AssemblyRecord
    let urls: ServiceURLs
    /// Current offsets of unfinished tus uploads, by upload ID (the record keeps offsets only once finished).
    var liveOffsets: [String: Int64] = [:]
    /// The time the answer is made (the service's clock), for the durations of a running Assembly.
    let now: Date

    /// The whole status object.
    var json: JSONValue {
        var members = summary
        let tus = record.tusUploads.map { entry -> JSONValue in
            let offset = entry.finished ? entry.size : (liveOffsets[entry.id] ?? entry.offset)
            return .object([
                "id": .string(entry.id), "filename": .string(entry.filename), "fieldname": .string(entry.fieldname),
                "size": .integer(entry.size), "offset": .integer(offset), "finished": .bool(entry.finished),
                "upload_url": .string(urls.tusUpload(entry.id)),
                "user_meta": .object(entry.userMeta.mapValues(JSONValue.string)),
            ])
        }
        let tusReceived = record.tusUploads.reduce(Int64(0)) { total, entry in
            total + (entry.finished ? 0 : (liveOffsets[entry.id] ?? entry.offset))
        }
        members["bytes_received"] = .integer(record.bytesReceived + tusReceived)
        members["bytes_expected"] = .integer(record.bytesExpected)
        members["tus_url"] = .string(urls.tusEndpoint)
        members["websocket_url"] = .string(urls.changeStreams)
        members["update_stream_url"] = .string(urls.changeStream(record.id))
        members["instance"] = .string("localhost")
        members["region"] = .string("local")
        members["transloadit_client"] = record.client.map(JSONValue.string) ?? .null
        members["params"] = .string(record.params)
        members["merged_params"] = .string(record.mergedParams.value.serialized)
        members["template_id"] = record.templateID.map(JSONValue.string) ?? .null
        members["expected_tus_uploads"] = .integer(Int64(record.expectedTusUploads))
        members["started_tus_uploads"] = .integer(Int64(record.startedTusUploads))
        members["finished_tus_uploads"] = .integer(Int64(record.finishedTusUploads))
        members["tus_uploads"] = .array(tus)
        members["upload_duration"] = duration(from: record.created, to: record.uploadFinished)
        members["execution_start"] = Self.timestamp(record.executionStart)
        members["execution_duration"] = duration(from: record.executionStart, to: record.executionEnd)
        members["queue_duration"] = duration(from: record.uploadFinished, to: record.executionStart)
        members["bytes_usage"] = .integer(record.bytesUsage)
        members["last_job_completed"] = Self.timestamp(record.executionEnd)
        members["uploads"] = .array(record.uploads.map { $0.json(urls: urls) })
        members["results"] = .object(record.results.mapValues { .array($0.map { $0.json(urls: urls) }) })
        members["num_input_files"] = .integer(Int64(record.uploads.count))
        members["warnings"] = .array([])
        let running = record.state == .executing
            ? record.mergedParams.value.objectValue?["steps"]?.objectValue?.keys.sorted().map(JSONValue.string) ?? [] : []
        members["running_jobs"] = .array(running)
        members["parent_id"] = record.parentID.map(JSONValue.string) ?? .null
        members["parent_assembly_status"] = record.parentID.map(parentStatus) ?? .null
        return .object(members)
    }

    /// A replay's `parent_assembly_status`: an object with the parent's `assembly_id`, `assembly_url` and `assembly_ssl_url`.
    ///
    /// The docs' replay page has it "pointing to the URL of the original" Assembly; go-sdk decodes it as an
    /// Assembly status (`*AssemblyInfo`: a string would fail its every decode of the replay's status) and
    /// node-sdk's schema leaves it open (`parent_id` beside it, a string). So it is a status object that holds
    /// the parent's URL, with the members of a status that name an Assembly.
    private func parentStatus(_ parentID: String) -> JSONValue {
        .object([
            "assembly_id": .string(parentID),
            "assembly_url": .string(urls.assembly(parentID)),
            "assembly_ssl_url": .string(urls.assembly(parentID)),
        ])
    }

    /// The fields a listing shows for each Assembly: state, URLs, times and the fields that say what it was for.
    var summary: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "id": .string(record.id),
            "assembly_id": .string(record.id),
            "assembly_url": .string(urls.assembly(record.id)),
            "assembly_ssl_url": .string(urls.assembly(record.id)),
            "ok": record.state.okCode,
            "http_code": .integer(200),
            "message": .string(record.failure?.message ?? record.state.message),
            "account_id": .string("local"),
            "start_date": Self.timestamp(record.created),
            "created": Self.timestamp(record.created),
            "fields": record.fields.value,
            "template_id": record.templateID.map(JSONValue.string) ?? .null,
            "files_count": .integer(Int64(record.uploads.count)),
            "results_count": .integer(Int64(record.results.values.reduce(0) { $0 + $1.count })),
        ]
        if let failure = record.failure {
            members["error"] = .string(failure.code)
            if let reason = failure.reason { members["reason"] = .string(reason) }
            if let step = failure.step { members["step"] = .string(step) }
            if let file = failure.file { members["file"] = .string(file) }
            if let original = failure.originalID { members["original_id"] = .string(original) }
            members["retryable"] = .bool(false)
        }
        return members
    }

    /// The status of a creation whose body is still arriving: `ASSEMBLY_UPLOADING` with the bytes so far.
    static func arriving(_ id: String, _ arrival: AssemblyStore.Arrival, urls: ServiceURLs) -> JSONValue {
        .object([
            "id": .string(id), "assembly_id": .string(id), "ok": ServiceAssemblyState.uploading.okCode, "http_code": .integer(200),
            "message": .string("The Assembly is receiving its uploads."),
            "assembly_url": .string(urls.assembly(id)), "assembly_ssl_url": .string(urls.assembly(id)),
            "tus_url": .string(urls.tusEndpoint), "start_date": timestamp(arrival.started),
            "bytes_received": .integer(arrival.received), "bytes_expected": arrival.expected.map(JSONValue.integer) ?? .null,
            "uploads": .array([]), "results": .object([:]),
        ])
    }

    private func duration(from start: Date?, to end: Date?) -> JSONValue {
        guard let start else { return .null }
        let seconds = (end ?? now).timeIntervalSince(start)
        return .number((max(0, seconds) * 1000).rounded() / 1000)
    }

    /// `YYYY/MM/DD HH:MM:SS GMT`, the form real status payloads use; null for no time.
    static func timestamp(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        let time = UTCDateTime(date)
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return .string("\(pad(time.year, 4))/\(pad(time.month))/\(pad(time.day)) \(pad(time.hour)):\(pad(time.minute)):\(pad(time.second)) GMT")
    }
}
