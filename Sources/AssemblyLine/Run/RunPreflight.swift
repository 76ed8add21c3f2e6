import ConfigFormat
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a run checks before its first creation, so that nothing is uploaded or paid for that cannot
/// come back: the output directory can be written, the endpoint and the signer answer, and the account's
/// Template is the one in the manifest's Template file (no console edit followed silently).
///
/// The state directory and the secrets are checked before this, by taking the lock, opening the
/// ledger and building the signer. A check that fails is its own ``RunSessionError`` (an unusable
/// output, an endpoint or signer that does not answer); the run is not recorded.
enum RunPreflight {
    /// How long the endpoint and the signer have to answer, connection included (docs/pipeline.md: 10 s).
    static let answerTimeout: Duration = .seconds(10)

    static func check(_ manifest: Manifest, ports: RunPorts) async throws(RunSessionError) {
        let output = manifest.output.dir
        if let reason = DirectoryCreation.make(output) ?? probe(output) {
            throw .outputUnusable(path: output, reason: reason)
        }
        guard !ports.endpointIsEmbedded else { return }
        try await answers(ports.endpoint, what: "the endpoint", transport: ports.transport)
        if case let .backend(url, _, _, caFile) = manifest.signer {
            try await answers(url, what: "the signer", transport: ports.transport, caBundlePath: caFile)
        }
        if case let .template(recipe) = manifest.recipe, let id = recipe.id, let file = recipe.file {
            try await compare(file, withAccountTemplate: id, manifest: manifest, ports: ports)
        }
    }

    /// Throws ``RunSessionError/templateDrift(manifest:templateID:differences:)`` when the account's Template `id` has
    /// other content than `file` (its name and signature setting change no output).
    private static func compare(_ file: TemplateFile, withAccountTemplate id: String, manifest: Manifest,
                                ports: RunPorts) async throws(RunSessionError) {
        let access = TemplateAccess(client: TransloaditClient(transport: ports.transport, endpoint: ports.endpoint), signer: ports.signer,
                                    key: ports.key, expiresIn: manifest.auth.expiresIn, now: { [clock = ports.clock] in clock.now })
        let account: AccountTemplate
        do {
            account = try await access.template(id)
        } catch let error as TransloaditError {
            throw .templateUnreadable(templateID: id, code: error.code, message: error.message)
        } catch let error as SigningError {
            throw .templateUnreadable(templateID: id, code: error.failureCode, message: error.description)
        } catch {
            throw .templateUnreadable(templateID: id, code: .malformedAnswer, message: "\(error)")
        }
        let differences = TemplateDifference.between(.object(file.document.content), .object(account.document.content))
        guard differences.isEmpty else {
            throw .templateDrift(manifest: manifest.file, templateID: id, differences: differences.count)
        }
    }

    /// nil when a file can be created in `directory`; else why not.
    private static func probe(_ directory: String) -> String? {
        let path = "\(directory)/.assemblyline-probe-\(getpid())"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return "cannot create a file in it: \(String(cString: strerror(errno)))" }
        close(descriptor)
        unlink(path)
        return nil
    }

    /// Any HTTP answer will do (even 404 or 401): what is checked is that something answers at all.
    private static func answers(_ url: String, what: String, transport: any HTTPTransport,
                                caBundlePath: String? = nil) async throws(RunSessionError) {
        let options = HTTPTransferOptions(connectTimeout: answerTimeout, totalTimeout: answerTimeout, caBundlePath: caBundlePath)
        do {
            _ = try await transport.send(.get(url), options: options)
        } catch {
            throw .unreachable(what: what, url: url, reason: error.description)
        }
    }
}
