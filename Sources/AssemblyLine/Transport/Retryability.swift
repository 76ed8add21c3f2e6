import HTTPMessages

/// The one decision whether trying an exchange again later can help, and how long to wait first.
///
/// Every caller asks here: the API client, the tus uploader, the signer, the downloads and the
/// transport's own errors. What a status means depends a little on whom it came from, so the
/// peer is part of the question.
package enum Retryability {
    /// Whom an exchange was with.
    package enum Peer: Sendable, Hashable {
        /// The Assembly API (`/assemblies`).
        case assemblyAPI
        /// A tus server (`/resumable/files/`).
        case tus
        /// The signing backend.
        case signer
        /// Where results are fetched from.
        case storage
    }

    /// True when the same request may succeed later after this status.
    ///
    /// Everyone: 5xx (the server failed), 408 (Request Timeout) and 429 (Too Many Requests). The
    /// Assembly API also 413: Transloadit answers `RATE_LIMIT_REACHED` with it (docs "Rate
    /// limiting"). A tus server also 423 Locked: another request holds the upload for now.
    /// `peer` nil: only the statuses that mean the same from everyone.
    package static func isRetryable(status: Int, from peer: Peer?) -> Bool {
        if status >= 500 || status == 408 || status == 429 { return true }
        switch peer {
        case .assemblyAPI?: return status == 413
        case .tus?: return status == 423
        case .signer?, .storage?, nil: return false
        }
    }

    /// True when a failed transfer may succeed later: network trouble (resolve, connect, timeout,
    /// reset), or a status that is retryable from `peer`. A file system short of space is not: nothing
    /// frees it within a run's backoff, and every try would fetch the same bytes into it again.
    package static func isRetryable(_ error: TransportError, from peer: Peer?) -> Bool {
        switch error {
        case .resolve, .connect, .timeout, .reset: true
        case let .httpStatus(_, code, _): isRetryable(status: code, from: peer)
        case .invalidRequest, .tls, .cancelled, .tooLarge, .fileIO, .insufficientSpace, .failed, .refusedAddress: false
        }
    }

    /// True when an Assembly that ended in error `code` is worth running again, in a new Assembly:
    /// the service's own `retryable` when it says, else only a creation that broke off
    /// (`REQUEST_ABORTED`) or a machine that crashed under it (`ASSEMBLY_CRASHED`).
    package static func isRetryable(assemblyError code: FailureCode, said retryable: Bool?) -> Bool {
        retryable ?? (code == .requestAborted || code == .assemblyCrashed)
    }

    /// True when the host that gave `error` may be gone for good (Transloadit cycles its machines):
    /// no connection, a 5xx, or a 404 that does not say "not found" in its body.
    package static func mayBeGone(_ error: TransloaditError) -> Bool {
        if let status = error.httpStatus { return status >= 500 || (status == 404 && !error.code.meansAssemblyNotFound) }
        return [.transportResolve, .transportConnect, .transportTimeout, .transportReset].contains(error.code)
    }

    /// What storage's refusal of a result means.
    package enum StorageRefusal: Sendable, Hashable {
        /// The result is gone (its lifetime is over, or it was fetched too often): only a new Assembly brings it back.
        case gone
        /// The storage is the customer's and private: no retry and no new Assembly can fetch it.
        case `private`
    }

    /// What a download's failing status means, nil when it means neither (a retry may help, or nothing will).
    ///
    /// 404 is gone everywhere; 403 and 410 on a temporary URL are gone too (Transloadit refuses an
    /// expired or over-fetched temporary file); 401 and 403 elsewhere are private storage.
    package static func storageRefusal(status: Int, temporary: Bool) -> StorageRefusal? {
        switch (status, temporary) {
        case (404, _), (403, true), (410, true): .gone
        case (401, _), (403, false): .private
        default: nil
        }
    }

    /// True for the codes that mean "slow down", whatever status they came with.
    package static func isRateLimit(_ code: FailureCode) -> Bool {
        code == .rateLimitReached || code == .statusRateLimitReached
    }

    /// True for an answer that asks the client to slow down: a rate-limit code, or 429 Too Many Requests.
    package static func isRateLimit(_ code: FailureCode, status: Int?) -> Bool {
        isRateLimit(code) || status == 429
    }

    /// How long the service asked to wait: `info.retryIn` (seconds, fractions allowed), else a
    /// `Retry-After` of whole seconds; nil when it said nothing usable.
    package static func wait(retryIn: Double?, retryAfter: String?) -> Duration? {
        if let retryIn, retryIn.isFinite, retryIn >= 0 { return .milliseconds(Int64(min(retryIn, 86_400) * 1_000)) }
        guard let text = retryAfter?.trimmingWhitespace(), let seconds = Int64(text), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 86_400))
    }
}
