import Foundation

/// The parts of an Assembly Status JSON the orchestrator acts on (transloadit-api.md §3).
///
/// The texts people read (the error code, message and reason, step names) are escaped and bounded
/// as they are read (``RemoteText``).
package struct AssemblyStatus: Sendable, Hashable, Decodable {
    /// Where the Assembly stands (`ok`); nil on errors.
    package var ok: AssemblyState?
    /// The error code when the Assembly, or the request, ended in error.
    package var error: FailureCode?
    package var message: String?
    package var reason: String?
    /// Whether the service says trying again can help, when it says (node-sdk `assemblyStatusErrSchema`).
    package var retryable: Bool?
    /// On an execution error, the upload (its `id`) whose processing failed, when the service says.
    package var failedOriginalID: String?
    package var assemblyID: String?
    package var assemblyURL: String?
    package var assemblySSLURL: String?
    package var tusURL: String?
    /// The Server-Sent Events stream of the Assembly's changes, when the service names one.
    package var updateStreamURL: String?
    /// The base of that stream; Uppy opens `<websocket_url>?assembly=<assembly_id>`.
    package var websocketURL: String?
    package var uploads: [AssemblyFile]
    /// Result files by step name.
    package var results: [String: [AssemblyFile]]
    /// Entries of `uploads` and `results` that were not objects (or a step whose results were not
    /// a list): left out, each alone, so that one odd entry never drops the rest.
    package var unreadableEntries: Int
    /// The resumable uploads the Assembly knows of (`tus_uploads`), whatever its `ok` says.
    package var tusUploads: [AssemblyTusUpload]
    /// How many tus uploads the Assembly waits for, and how many finished, when it says.
    package var expectedTusUploads: Int?
    package var finishedTusUploads: Int?
    /// Seconds to wait, on rate-limit answers.
    package var retryIn: Double?
    /// What the Assembly cost and how long it queued and ran, as far as the status says.
    package var usage: AssemblyUsage
    /// The Assembly a replay replays, as its status names it (`parent_id`, else `parent_assembly_status.assembly_id`).
    package var parentID: String?

    enum CodingKeys: String, CodingKey {
        case ok, error, message, reason, retryable, uploads, results, info
        case failedOriginalID = "original_id"
        case assemblyID = "assembly_id"
        case assemblyURL = "assembly_url"
        case assemblySSLURL = "assembly_ssl_url"
        case tusURL = "tus_url"
        case updateStreamURL = "update_stream_url"
        case websocketURL = "websocket_url"
        case tusUploads = "tus_uploads"
        case expectedTusUploads = "expected_tus_uploads"
        case finishedTusUploads = "finished_tus_uploads"
        case bytesUsage = "bytes_usage"
        case queueDuration = "queue_duration"
        case executionDuration = "execution_duration"
        case parentID = "parent_id"
        case parentStatus = "parent_assembly_status"
    }

    enum ParentKeys: String, CodingKey {
        case assemblyID = "assembly_id"
    }

    enum InfoKeys: String, CodingKey {
        case retryIn
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ok = (try? container.decodeIfPresent(String.self, forKey: .ok)).flatMap { $0 }.map(AssemblyState.init(code:))
        error = (try? container.decodeIfPresent(String.self, forKey: .error)).flatMap { $0 }
            .map { FailureCode(rawValue: RemoteText.escaped($0, limit: RemoteText.nameLimit)) }
        message = (try? container.decodeIfPresent(String.self, forKey: .message)).flatMap { $0 }
            .map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
        reason = (try? container.decodeIfPresent(String.self, forKey: .reason)).flatMap { $0 }
            .map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
        retryable = try? container.decodeIfPresent(Bool.self, forKey: .retryable)
        failedOriginalID = (try? container.decodeIfPresent(String.self, forKey: .failedOriginalID))
            ?? (try? container.decodeIfPresent([String].self, forKey: .failedOriginalID)).flatMap { $0.count == 1 ? $0.first : nil }
        assemblyID = try? container.decodeIfPresent(String.self, forKey: .assemblyID)
        assemblyURL = try? container.decodeIfPresent(String.self, forKey: .assemblyURL)
        assemblySSLURL = try? container.decodeIfPresent(String.self, forKey: .assemblySSLURL)
        tusURL = try? container.decodeIfPresent(String.self, forKey: .tusURL)
        updateStreamURL = try? container.decodeIfPresent(String.self, forKey: .updateStreamURL)
        websocketURL = try? container.decodeIfPresent(String.self, forKey: .websocketURL)
        parentID = (try? container.decodeIfPresent(String.self, forKey: .parentID)).flatMap { $0 }
            ?? (try? container.nestedContainer(keyedBy: ParentKeys.self, forKey: .parentStatus).decodeIfPresent(String.self, forKey: .assemblyID))
                .flatMap { $0 }
        let uploadEntries = try? container.decodeIfPresent(EntryList.self, forKey: .uploads)
        uploads = uploadEntries?.files ?? []
        var unreadable = uploadEntries?.unreadable ?? 0
        results = [:]
        if let steps = try? container.nestedContainer(keyedBy: StepName.self, forKey: .results) {
            for step in steps.allKeys {
                guard let entries = try? steps.decode(EntryList.self, forKey: step) else {
                    unreadable += 1
                    continue
                }
                results[RemoteText.escaped(step.stringValue, limit: RemoteText.nameLimit), default: []] += entries.files
                unreadable += entries.unreadable
            }
        }
        unreadableEntries = unreadable
        tusUploads = (try? container.decodeIfPresent([Lenient<AssemblyTusUpload>].self, forKey: .tusUploads))?.compactMap(\.value) ?? []
        expectedTusUploads = try? container.decodeIfPresent(Int.self, forKey: .expectedTusUploads)
        finishedTusUploads = try? container.decodeIfPresent(Int.self, forKey: .finishedTusUploads)
        let info = try? container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        retryIn = try? info?.decodeIfPresent(Double.self, forKey: .retryIn)
        usage = AssemblyUsage(bytes: AssemblyUsage.bytes(try? container.decodeIfPresent(Double.self, forKey: .bytesUsage)),
                              queueSeconds: AssemblyUsage.seconds(try? container.decodeIfPresent(Double.self, forKey: .queueDuration)),
                              executionSeconds: AssemblyUsage.seconds(try? container.decodeIfPresent(Double.self, forKey: .executionDuration)))
    }

    /// A step's name, as a key of `results`.
    struct StepName: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// One entry of a list that reads as nil when it is not a `Value`, so that the list reads on.
    struct Lenient<Value: Decodable>: Decodable {
        let value: Value?
        init(from decoder: any Decoder) {
            value = try? Value(from: decoder)
        }
    }

    /// A list of files read entry by entry: an entry that is not a file is counted and skipped.
    struct EntryList: Decodable {
        let files: [AssemblyFile]
        let unreadable: Int

        init(from decoder: any Decoder) throws {
            let entries = try [Lenient<AssemblyFile>](from: decoder)
            files = entries.compactMap(\.value)
            unreadable = entries.count - files.count
        }
    }

    /// Decodes a status body; nil when it is not a JSON object.
    package static func decode(_ body: [UInt8]) -> AssemblyStatus? {
        try? JSONDecoder().decode(AssemblyStatus.self, from: Data(body))
    }

    /// True when the answer is an Assembly's own end in error, not a refusal of the request: it names
    /// the Assembly, and its code is neither "not found" nor "slow down" nor a reused ID or signature.
    package var isAssemblyError: Bool {
        guard let error, assemblyID != nil else { return false }
        return !error.meansAssemblyNotFound && !error.refusesRequest
    }

    /// True while the Assembly still runs: uploading, executing or replaying.
    package var isRunning: Bool { error == nil && ok?.isRunning == true }

    /// What the service said of an error, for people: its `message` and its `reason` (a Robot's own
    /// words, such as libvips' `Premature end of input file`), each when it gave it.
    package var errorText: String? {
        let said = [message, reason].compactMap { $0 }.filter { !$0.isEmpty }
        return said.isEmpty ? nil : said.joined(separator: ": ")
    }

    /// True when it completed without error.
    package var isCompleted: Bool { error == nil && ok == .completed }

    /// The URL to poll and to name in tus metadata: the ssl URL, else the plain one.
    package var statusURL: String? { assemblySSLURL ?? assemblyURL }

    /// Where the Assembly's change stream is: `update_stream_url` (the docs' name), else
    /// `websocket_url?assembly=<id>` as Uppy builds it (a creation answer may name only that one).
    package var streamURL: String? {
        if let updateStreamURL, !updateStreamURL.isEmpty { return updateStreamURL }
        guard let websocketURL, !websocketURL.isEmpty, let assemblyID else { return nil }
        return websocketURL + (websocketURL.contains("?") ? "&" : "?") + "assembly=" + assemblyID
    }
}
