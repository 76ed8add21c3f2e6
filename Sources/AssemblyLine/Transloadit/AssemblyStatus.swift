/// The parts of an Assembly Status JSON the orchestrator acts on (transloadit-api.md §3).
///
/// Read in one pass over the body by ``decode(_:)`` (`AssemblyStatus+Reading.swift`). The texts people read
/// (the error code, message and reason, step names) are escaped and bounded as they are read (``RemoteText``).
package struct AssemblyStatus: Sendable, Hashable {
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
    package var uploads: [AssemblyFile] = []
    /// Result files by step name.
    package var results: [String: [AssemblyFile]] = [:]
    /// Entries of `uploads` and `results` that were not objects (or a step whose results were not
    /// a list): left out, each alone, so that one odd entry never drops the rest.
    package var unreadableEntries = 0
    /// The resumable uploads the Assembly knows of (`tus_uploads`), whatever its `ok` says.
    package var tusUploads: [AssemblyTusUpload] = []
    /// How many tus uploads the Assembly waits for, and how many finished, when it says.
    package var expectedTusUploads: Int?
    package var finishedTusUploads: Int?
    /// Seconds to wait, on rate-limit answers.
    package var retryIn: Double?
    /// What the Assembly cost and how long it queued and ran, as far as the status says.
    package var usage = AssemblyUsage.unknown
    /// The Assembly a replay replays, as its status names it (`parent_id`, else `parent_assembly_status.assembly_id`).
    package var parentID: String?

    /// A status that says nothing, which reading fills in.
    init() {}

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
