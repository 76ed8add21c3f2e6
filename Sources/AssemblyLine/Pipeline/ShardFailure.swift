/// Why a step of a shard stopped, and what may follow: a retry of the step, a new Assembly, or nothing.
package struct ShardFailure: Error, Sendable, Hashable {
    package var reason: FailureReason
    /// True when the next try needs a new Assembly (the old one is gone, expired, or broke mid-upload).
    package var needsNewAssembly: Bool
    /// How long the service asked to wait, if it did.
    package var retryIn: Duration?
    /// The one input the failure is about (a corrupt file): it fails alone and the shard goes on without it.
    package var culprit: Int?
    /// True when the service said the culprit itself cannot be processed and a retry will not help: the
    /// next runs leave it out while it is unchanged (``KnownBadFile``).
    package var culpritIsBad = false
    /// True when the host that failed may be gone (a machine cycled away): asking the API host may help.
    package var hostUnreachable = false
    /// True when the service said slow down: a status request waits and asks again without using up a try.
    package var isRateLimit = false
    /// The Assembly, when it is the Assembly itself that failed after its uploads were stored (its status carried the
    /// error): a new try may replay it (``ReplayRule``).
    package var failedAssembly: FailedAssembly?

    package init(_ reason: FailureReason, needsNewAssembly: Bool = false, retryIn: Duration? = nil) {
        self.reason = reason
        self.needsNewAssembly = needsNewAssembly
        self.retryIn = retryIn
    }

    package init(_ error: TransloaditError, needsNewAssembly: Bool = false) {
        self.init(error.failureReason, needsNewAssembly: needsNewAssembly, retryIn: error.retryIn)
        hostUnreachable = Retryability.mayBeGone(error)
        isRateLimit = error.isRateLimit
    }

    /// A failure uploading one input: a file changed, gone, unreadable or empty fails alone (`culprit`); an empty
    /// one stays so until it changes, and is known bad (a gone or unreadable one may be back tomorrow as it was).
    package init(_ error: TransloaditError, uploading file: Int) {
        self.init(error)
        if [.inputChanged, .inputMissing, .inputUnreadable, .inputEmpty].contains(error.code) { culprit = file }
        culpritIsBad = error.code == .inputEmpty
    }

    package init(_ error: SigningError) {
        self.init(FailureReason(code: error.failureCode, message: error.description, isRetryable: error.isRetryable))
    }

    package init(code: FailureCode, _ message: String, retryable: Bool, needsNewAssembly: Bool = false) {
        self.init(FailureReason(code: code, message: message, isRetryable: retryable), needsNewAssembly: needsNewAssembly)
    }
}
