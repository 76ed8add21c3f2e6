import AssemblyLine
import HTTPServer

extension BucketImporter {
    /// Why a key or a directory was not imported.
    enum Failure: Error {
        /// `/minio/import`'s `host` is refused or malformed.
        case host(String)
        case fetch(ImportContext.FetchFailure)
        case listing(S3ListingError)
    }

    /// The Assembly's failure for `key`: its code by S3's answer, its message naming the key, never a credential.
    func failure(_ failure: Failure, key: String, step: String) -> AssemblyFailure {
        let (code, reason) = classify(failure)
        return AssemblyFailure(
            code: code.rawValue, message: "Step '\(EchoedText.excerpt(step))' could not import \(RemoteText.escaped(key, limit: 1024)): \(reason).",
            step: step, file: key)
    }

    /// The code and the words of a failure: a missing object, refused credentials, a refused host, anything else.
    func classify(_ failure: Failure) -> (ServiceErrorCode, String) {
        let refusal: S3ListingError
        switch failure {
        case .host(let reason):
            return (.importURLRefused, reason)
        case .fetch(.transport(.refusedAddress(_, let address))), .listing(.transport(.refusedAddress(_, let address))):
            return (.importURLRefused, "its bucket's host leads to \(address)")
        case .fetch(.status(let status, let body)):
            refusal = S3ErrorAnswer.refusal(status: status, body: body)
        case .fetch(let other):
            return (.s3ImportError, context.reason(of: other))
        case .listing(let error):
            refusal = error
        }
        guard case .refused(let code, let status, let message) = refusal else {
            return (.s3ImportError, FileFailureText(root: context.store.root).scrubbed(refusal.description))
        }
        let said = "HTTP \(status) \(code)" + (message.isEmpty ? "" : ": \(message)")
        if status == 404 || code == .noSuchBucket || code == .other("NoSuchKey") {
            return (.s3ImportNotFound, "the bucket has no such object (\(said))")
        }
        if refusal.isAuthorizationFailure { return (.s3ImportAccessDenied, "the bucket refused the credentials (\(said))") }
        return (.s3ImportError, said)
    }
}
