/// A failure's stable code, as the ledger, the reports and `report --failed` show it.
///
/// The client's own codes are the constants below; the service's (`IMAGE_RESIZE_ERROR`, ...),
/// an HTTP status (`HTTP_503`) and the transport's (`TRANSPORT_CONNECT`) are codes of the same
/// type, so that every decision about a failure compares typed values, never text.
package struct FailureCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package init(stringLiteral rawValue: String) {
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    /// `HTTP_<status>`, for an answer that carried no error code of its own.
    package static func http(_ status: Int) -> FailureCode { FailureCode(rawValue: "HTTP_\(status)") }

    // MARK: - Inputs

    /// An input's size or modification time changed since the plan.
    package static let inputChanged: FailureCode = "INPUT_CHANGED"
    /// An input is gone since the plan.
    package static let inputMissing: FailureCode = "INPUT_MISSING"
    /// An input of zero bytes: no Robot makes anything of it, so it fails before it is sent.
    package static let inputEmpty: FailureCode = "INPUT_EMPTY"
    /// An input's bytes could not be read.
    package static let inputUnreadable: FailureCode = "INPUT_UNREADABLE"

    // MARK: - The Assembly API

    package static let rateLimitReached: FailureCode = "RATE_LIMIT_REACHED"
    package static let statusRateLimitReached: FailureCode = "ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED"
    /// A creation named an ID that exists: ours, when the first try went through and its answer was lost.
    package static let assemblyIDTaken: FailureCode = "DO_NOT_REUSE_ASSEMBLY_IDS"
    /// A creation's signed params arrived before: identical params are refused (go-sdk issue 35), so
    /// every try is signed afresh; ours, when the first try went through and its answer was lost.
    package static let signatureReused: FailureCode = "SIGNATURE_REUSE_DETECTED"
    /// The service answered for another Assembly than the one asked for.
    package static let assemblyIDMismatch: FailureCode = "ASSEMBLY_ID_MISMATCH"
    /// The creating request broke off before the service had its whole body.
    package static let requestAborted: FailureCode = "REQUEST_ABORTED"
    /// The service no longer knows the Assembly.
    package static let assemblyNotFound: FailureCode = "ASSEMBLY_NOT_FOUND"
    /// The service has no status for the Assembly: not found, like ``assemblyNotFound``.
    package static let assemblyStatusNotFound: FailureCode = "ASSEMBLY_STATUS_NOT_FOUND"
    /// No machine holds the Assembly: not found, like ``assemblyNotFound``.
    package static let assemblyInstanceNotFound: FailureCode = "ASSEMBLY_INSTANCE_NOT_FOUND"
    /// The service will not replay the Assembly: it still runs, never received all its uploads, or they are gone.
    package static let assemblyCannotBeReplayed: FailureCode = "ASSEMBLY_CANNOT_BE_REPLAYED"
    /// The failed Assembly a shard would replay does not hold every file the shard has pending: a new one is made instead.
    package static let replayLacksFiles: FailureCode = "REPLAY_LACKS_FILES"
    /// The service's machine broke while it ran the Assembly; a new Assembly may succeed.
    package static let assemblyCrashed: FailureCode = "ASSEMBLY_CRASHED"
    /// The Assembly stopped (an error or a cancel) before its uploads were in.
    package static let assemblyStopped: FailureCode = "ASSEMBLY_STOPPED"
    /// The Assembly did not finish within `poll.timeout`.
    package static let pollTimeout: FailureCode = "POLL_TIMEOUT"
    /// The results are past their lifetime at the service.
    package static let resultsExpired: FailureCode = "RESULTS_EXPIRED"
    /// The ledger has no status URL for the attempt's Assembly.
    package static let assemblyURLMissing: FailureCode = "ASSEMBLY_URL_MISSING"
    /// The service named no tus endpoint for the Assembly.
    package static let tusURLMissing: FailureCode = "TUS_URL_MISSING"
    /// The ledger has no attempt for the shard.
    package static let noAttempt: FailureCode = "NO_ATTEMPT"
    /// The signing backend refused or could not sign.
    package static let signingRefused: FailureCode = "SIGNING_REFUSED"
    package static let signerUnreachable: FailureCode = "SIGNER_UNREACHABLE"

    /// True for the codes that say the service does not know the Assembly, whatever the HTTP status
    /// they came with (node-sdk `assemblyStatus.ts` lists all three).
    package var meansAssemblyNotFound: Bool {
        self == .assemblyNotFound || self == .assemblyStatusNotFound || self == .assemblyInstanceNotFound
    }

    /// True for an Assembly's error that says its uploads never all arrived (`REQUEST_ABORTED`): nothing was stored for a
    /// replay to run on.
    package var meansUploadsIncomplete: Bool {
        self == .requestAborted || self == .assemblyStopped
    }

    /// True for the codes that say a service could not be reached: no name, no connection, no answer
    /// in time, no TLS, a dropped connection, a gateway or unavailable status (bare, or with the
    /// body's code for it), a signer that does not answer.
    package var meansUnreachable: Bool {
        [.transportResolve, .transportConnect, .transportTimeout, .transportTLS, .transportReset, .signerUnreachable,
         .http(502), .http(503), .http(504), "BAD_GATEWAY", "SERVICE_UNAVAILABLE", "GATEWAY_TIMEOUT"].contains(self)
    }

    /// True for the codes that refuse our credentials or signature: the signer's refusal, or the service's auth errors.
    package var meansCredentialsRefused: Bool {
        self == .signingRefused || rawValue == "INVALID_SIGNATURE" || rawValue.hasPrefix("AUTH_")
            || rawValue.hasSuffix("_AUTH_KEY") || rawValue == "NO_AUTH_EXPIRES_PARAMETER"
    }

    /// True for the codes that say this host cannot write the output (no room, no permission, a read-only file system):
    /// every shard would meet it, so a run stops creating Assemblies at once (``FailureBreaker``).
    package var meansLocalFault: Bool {
        self == .outputNotWritable || self == .outputSpaceLow
    }

    /// True for the checks the client makes of an input before it is sent: no Assembly saw it fail.
    package var isClientCheck: Bool {
        [.inputChanged, .inputMissing, .inputEmpty, .inputUnreadable, .outputNameTooLong].contains(self)
    }

    // MARK: - Templates

    /// An answer of the Template API that is not what the API documents (no ID, no content with steps, not JSON).
    package static let malformedAnswer: FailureCode = "MALFORMED_ANSWER"

    /// True for the codes that refuse the request itself, not an Assembly's work: slow down, or a reused ID or signature.
    package var refusesRequest: Bool {
        Retryability.isRateLimit(self) || self == .assemblyIDTaken || self == .signatureReused
    }

    // MARK: - Downloads

    /// Two results of one Assembly render to one output path: the second's file fails, nothing is overwritten.
    package static let outputCollision: FailureCode = "OUTPUT_COLLISION"
    /// A result's output path has a name over 255 bytes or is over 4,095: its file fails alone.
    package static let outputNameTooLong: FailureCode = "OUTPUT_NAME_TOO_LONG"
    /// An Assembly gave more results than `limits.max_results_per_file` allows for its files.
    package static let tooManyResults: FailureCode = "TOO_MANY_RESULTS"
    /// A result's body ran past its declared size, its `Content-Length`, `limits.max_result_size` or, declaring no size,
    /// `limits.max_undeclared_result_size`: the download stopped there.
    package static let resultTooLarge: FailureCode = "RESULT_TOO_LARGE"
    /// A result's URL is one the client does not fetch (``ResultURLRule``): off a loopback endpoint's own origin; for
    /// any other endpoint, not https, or on this machine, a private network or a cloud metadata address, directly or
    /// through a redirect; or with credentials.
    package static let resultURLRefused: FailureCode = "RESULT_URL_REFUSED"

    package static let outputNotWritable: FailureCode = "OUTPUT_NOT_WRITABLE"
    /// A download would have left less than `limits.min_free_space` free on the output's file system: the
    /// shard fails, not retried, and keeps its Assembly, so `resume` fetches its results once space is freed.
    package static let outputSpaceLow: FailureCode = "OUTPUT_SPACE_LOW"
    /// Storage refused a result (401, 403): an export Robot's, in the customer's private storage.
    package static let resultNotDownloadable: FailureCode = "RESULT_NOT_DOWNLOADABLE"
    /// A temporary result was fetched as often as the client allows (the service refuses more than 10 fetches).
    package static let resultFetchLimit: FailureCode = "RESULT_FETCH_LIMIT"
    package static let downloadMissing: FailureCode = "DOWNLOAD_MISSING"
    package static let downloadSizeMismatch: FailureCode = "DOWNLOAD_SIZE_MISMATCH"
    package static let downloadUnreadable: FailureCode = "DOWNLOAD_UNREADABLE"
    package static let downloadChecksumMismatch: FailureCode = "DOWNLOAD_CHECKSUM_MISMATCH"

    // MARK: - tus

    package static let tusProtocolError: FailureCode = "TUS_PROTOCOL_ERROR"
    package static let tusUnsupported: FailureCode = "TUS_UNSUPPORTED"
    package static let tusTooLarge: FailureCode = "TUS_TOO_LARGE"
    package static let tusOffsetBeyondSize: FailureCode = "TUS_OFFSET_BEYOND_SIZE"
    package static let tusOffsetBackwards: FailureCode = "TUS_OFFSET_BACKWARDS"
    package static let tusNoProgress: FailureCode = "TUS_NO_PROGRESS"
    package static let tusChecksumMismatch: FailureCode = "TUS_CHECKSUM_MISMATCH"

    // MARK: - Transport

    package static let transportInvalidRequest: FailureCode = "TRANSPORT_INVALID_REQUEST"
    package static let transportResolve: FailureCode = "TRANSPORT_RESOLVE"
    package static let transportConnect: FailureCode = "TRANSPORT_CONNECT"
    package static let transportTimeout: FailureCode = "TRANSPORT_TIMEOUT"
    package static let transportTLS: FailureCode = "TRANSPORT_TLS"
    package static let transportReset: FailureCode = "TRANSPORT_RESET"
    package static let transportCancelled: FailureCode = "TRANSPORT_CANCELLED"
    package static let transportTooLarge: FailureCode = "TRANSPORT_TOO_LARGE"
    package static let transportFileIO: FailureCode = "TRANSPORT_FILE_IO"
    package static let transportLowSpace: FailureCode = "TRANSPORT_LOW_SPACE"
    package static let transportFailed: FailureCode = "TRANSPORT_FAILED"
    package static let transportRefusedAddress: FailureCode = "TRANSPORT_REFUSED_ADDRESS"
}
