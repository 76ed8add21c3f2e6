import ConfigFormat

/// Reading a status body in one pass (``JSONCursor``), as Foundation's `JSONDecoder` read it through the old
/// `Decodable` conformance: a member of an unexpected type reads as missing, the first of a repeated name counts,
/// and the members the orchestrator does not act on are skipped unread (docs/transloadit-fidelity.md, "status JSON").
extension AssemblyStatus {
    /// The members of a status the orchestrator reads (transloadit-api.md §3.1).
    enum Member: String, CaseIterable, Sendable {
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

    /// The one member read of `parent_assembly_status`.
    enum ParentMember: String, CaseIterable, Sendable {
        case assemblyID = "assembly_id"
    }

    /// The one member read of `info`.
    enum InfoMember: String, CaseIterable, Sendable {
        case retryIn
    }

    static let members = MemberNames<Member>()
    static let parentMembers = MemberNames<ParentMember>()
    static let infoMembers = MemberNames<InfoMember>()

    /// Decodes a status body; nil when it is not a JSON object.
    package static func decode(_ body: [UInt8]) -> AssemblyStatus? {
        JSONCursor.read(body) { cursor throws(JSONCursorError) in try AssemblyStatus(reading: &cursor) } ?? nil
    }

    /// Reads the status object that comes next; nil when it is not an object, or one of its keys is not a valid string.
    init?(reading cursor: inout JSONCursor) throws(JSONCursorError) {
        var status = AssemblyStatus()
        var parentID: String?
        var parentStatusID: String?
        var unreadable = (uploads: 0, results: 0)
        var seen: UInt64 = 0
        let members = Self.members
        let readable = try cursor.object { cursor, key throws(JSONCursorError) in
            switch members.first(key, in: cursor, seen: &seen) {
            case .ok?: status.ok = try cursor.text().map(AssemblyState.init(code:))
            case .error?: status.error = try cursor.text().map { FailureCode(rawValue: RemoteText.escaped($0, limit: RemoteText.nameLimit)) }
            case .message?: status.message = try cursor.text().map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
            case .reason?: status.reason = try cursor.text().map { RemoteText.escaped($0, limit: RemoteText.messageLimit) }
            case .retryable?: status.retryable = try cursor.bool()
            case .failedOriginalID?: status.failedOriginalID = try Self.failedOriginalID(&cursor)
            case .assemblyID?: status.assemblyID = try cursor.text()
            case .assemblyURL?: status.assemblyURL = try cursor.text()
            case .assemblySSLURL?: status.assemblySSLURL = try cursor.text()
            case .tusURL?: status.tusURL = try cursor.text()
            case .updateStreamURL?: status.updateStreamURL = try cursor.text()
            case .websocketURL?: status.websocketURL = try cursor.text()
            case .parentID?: parentID = try cursor.text()
            case .parentStatus?: parentStatusID = try Self.member(Self.parentMembers, of: &cursor) { cursor throws(JSONCursorError) in try cursor.text() }
            case .uploads?:
                let list = try AssemblyFile.list(&cursor)
                status.uploads = list?.files ?? []
                unreadable.uploads = list?.unreadable ?? 0
            case .results?: (status.results, unreadable.results) = try Self.results(&cursor)
            case .tusUploads?: status.tusUploads = try AssemblyTusUpload.list(&cursor)
            case .expectedTusUploads?: status.expectedTusUploads = try cursor.integer().flatMap { Int(exactly: $0) }
            case .finishedTusUploads?: status.finishedTusUploads = try cursor.integer().flatMap { Int(exactly: $0) }
            case .info?: status.retryIn = try Self.member(Self.infoMembers, of: &cursor) { cursor throws(JSONCursorError) in try cursor.number() }
            case .bytesUsage?: status.usage.bytes = AssemblyUsage.bytes(try cursor.number())
            case .queueDuration?: status.usage.queueSeconds = AssemblyUsage.seconds(try cursor.number())
            case .executionDuration?: status.usage.executionSeconds = AssemblyUsage.seconds(try cursor.number())
            case nil: try cursor.skip()
            }
        }
        guard readable else { return nil }
        status.parentID = parentID ?? parentStatusID
        status.unreadableEntries = unreadable.uploads + unreadable.results
        self = status
    }

    /// The result files by step (`results`) and how many of their entries were unreadable: a step whose results
    /// are not a list counts as one. Nothing when `results` is not an object of valid keys; a repeated step
    /// counts once, and steps whose escaped names are the same share their list.
    private static func results(_ cursor: inout JSONCursor) throws(JSONCursorError) -> ([String: [AssemblyFile]], Int) {
        var results: [String: [AssemblyFile]] = [:]
        var unreadable = 0
        var steps = Set<String>()
        let readable = try cursor.object { cursor, key throws(JSONCursorError) in
            guard let step = cursor.text(key), steps.insert(step).inserted else { return try cursor.skip() }
            guard let list = try AssemblyFile.list(&cursor) else {
                unreadable += 1
                return
            }
            results[RemoteText.escaped(step, limit: RemoteText.nameLimit), default: []] += list.files
            unreadable += list.unreadable
        }
        return readable ? (results, unreadable) : ([:], 0)
    }

    /// The upload an execution error names (`original_id`): one ID, or a list of exactly one.
    private static func failedOriginalID(_ cursor: inout JSONCursor) throws(JSONCursorError) -> String? {
        guard try cursor.kind() == .array else { return try cursor.text() }
        var ids: [String] = []
        var allIDs = true
        _ = try cursor.array { cursor throws(JSONCursorError) in
            if let id = try cursor.text() { ids.append(id) } else { allIDs = false }
        }
        return allIDs && ids.count == 1 ? ids[0] : nil
    }

    /// The one member `table` names in the object that comes next, read by `read`; nil when it is absent, or the
    /// value is no object of valid keys.
    private static func member<Key, Value>(_ table: MemberNames<Key>, of cursor: inout JSONCursor,
                                           _ read: (inout JSONCursor) throws(JSONCursorError) -> Value?) throws(JSONCursorError) -> Value? {
        var value: Value?
        var seen: UInt64 = 0
        let readable = try cursor.object { cursor, key throws(JSONCursorError) in
            if table.first(key, in: cursor, seen: &seen) == nil {
                try cursor.skip()
            } else {
                value = try read(&cursor)
            }
        }
        return readable ? value : nil
    }
}
