import HTTPMessages

extension TransloaditClient {
    /// Replays the Assembly `parent` (`POST /assemblies/<parent>/replay` with the signed params of ``AssemblyParams/replaySerialized(now:)``): a new
    /// Assembly runs on the uploads the service stored for it, and nothing is uploaded; returns the new Assembly's status.
    ///
    /// The answer is untrusted input as a creation's is: it must be a 2xx status without `error`, name a new Assembly
    /// ID of the form ours have (32 lowercase hex digits, not the parent's), a status URL (when it gives one) of that
    /// Assembly over http or https, and, when it names the Assembly it replays, `parent`; anything else is refused
    /// (`ASSEMBLY_ID_MISMATCH`, not retried), and the shard makes its Assembly anew.
    package func replay(_ parent: AssemblyID, signed: SignedParams) async throws(TransloaditError) -> AssemblyStatus {
        let request = HTTPRequestSpec.form(.post, "\(endpoint)/assemblies/\(parent)/replay", fields: signed.formFields)
        let (response, status) = try await exchange(request, within: RequestDeadline.answer, progress: nil)
        let answer = try Self.usable(status, of: response)
        guard let named = answer.assemblyID, let id = AssemblyID(named), id != parent else {
            throw Self.refusedReplay("names no new Assembly ID")
        }
        if let url = answer.statusURL {
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), url.split(separator: "/").last.map(String.init) == id.rawValue else {
                throw Self.refusedReplay("gives a status URL that is not Assembly \(id)'s")
            }
        }
        if let named = answer.parentID, named != parent.rawValue {
            throw Self.refusedReplay("replays another Assembly than \(parent)")
        }
        return answer
    }

    private static func refusedReplay(_ what: String) -> TransloaditError {
        TransloaditError(code: .assemblyIDMismatch, message: "the answer to a replay \(what)", isRetryable: false)
    }
}
