import AssemblyLine
import Digests
import HTTPMessages
import HTTPServer

/// Imports the objects an `/s3/import` or `/minio/import` step names: GetObject, path-style, signed in-process.
///
/// `GET {endpoint}/{bucket}/{key}` with the key encoded once per segment (``SigV4Request``), signed by the domain's
/// ``SigV4Signer``; a path that ends in `/` is a directory, listed with ``S3BucketLister``. `/s3/import` reaches
/// the endpoint of its Template Credentials; `/minio/import` the step's `host` (in the credentials' scheme, under
/// the import rule, since the params name it) when it has one. Each object is handed to the caller as it is made.
struct BucketImporter: Sendable {
    let context: ImportContext

    /// The bucket a step reaches and the peers its connections may reach, or why it reaches none.
    private func target(of options: BucketImportOptions, credential: TemplateCredential) -> Result<(S3BucketAddress, PeerRule), Failure> {
        guard let host = options.host else { return .success((credential.bucket, .any)) }
        let endpoint = "\(credential.bucket.scheme)://\(host)"
        // What the messages show of the host: never user info.
        let shown = RemoteText.escaped(TransportEndpoint(url: endpoint).description, limit: 255)
        if let problem = context.rule.problem(with: endpoint + "/") { return .failure(.host("its host \(shown) is refused: \(problem)")) }
        do {
            return .success((try S3BucketAddress(endpoint: endpoint, region: credential.bucket.region, bucket: credential.bucket.bucket), context.rule.peers))
        } catch {
            return .failure(.host("its host \(shown) is not host[:port]"))
        }
    }

    /// Imports each key of `options` into `assembly`, handing each file or failure to `each`, which returns false to stop.
    func run(_ options: BucketImportOptions, step: String, assembly: String, each: (Result<ServiceAssemblyFile, AssemblyFailure>) -> Bool) {
        let stepName = EchoedText.excerpt(step)
        guard let credential = context.credentials[options.credentials] else {
            _ = each(.failure(AssemblyFailure(
                code: ServiceErrorCode.s3ImportCredentialsNotFound.rawValue,
                message: "Step '\(stepName)' names the Template Credentials '\(EchoedText.excerpt(options.credentials))', which the service does not hold.",
                step: step)))
            return
        }
        let address: S3BucketAddress, peers: PeerRule
        switch target(of: options, credential: credential) {
        case .failure(let failure):
            let (code, reason) = classify(failure)
            _ = each(.failure(AssemblyFailure(code: code.rawValue, message: "Step '\(stepName)' cannot import: \(reason).", step: step)))
            return
        case .success(let reached):
            (address, peers) = reached
        }
        var transfer = HTTPTransferOptions()
        transfer.peers = peers
        let signer = SigV4Signer(credentials: credential.keys, region: address.region, hashing: LibcryptoSigV4Hashing())
        for path in options.paths {
            let keys: [(key: String, listed: Bool)]
            if path.hasSuffix("/") {
                switch list(directory: path, options: options, address: address, credential: credential, transfer: transfer) {
                case .failure(let failure):
                    _ = each(.failure(self.failure(failure, key: path, step: step)))
                    continue
                case .success(let listed):
                    keys = listed.map { ($0, true) }
                }
            } else {
                keys = [(path, false)]
            }
            for (key, listed) in keys {
                let request = SigV4Request(method: .get, host: address.host, path: "/\(address.bucket)/\(key)")
                let spec = HTTPRequestSpec.get(address.url(request.urlSuffix), headers: signer.headers(for: request, at: UTCDateTime(context.clock.now)))
                let outcome: Result<ServiceAssemblyFile, AssemblyFailure>
                switch context.fetch(spec, options: transfer, assembly: assembly) {
                case .success(let fetched):
                    var file = context.file(fetched, name: CreateAssemblyHandler.baseName(key), assembly: assembly)
                    file.originalPath = key
                    file.fromBatchImport = listed
                    outcome = .success(file)
                case .failure(let failure):
                    outcome = .failure(self.failure(.fetch(failure), key: key, step: step))
                }
                guard each(outcome) else { return }
            }
        }
    }

    /// Why a key or a directory was not imported.
    private enum Failure: Error {
        /// `/minio/import`'s `host` is refused or malformed.
        case host(String)
        case fetch(ImportContext.FetchFailure)
        case listing(S3ListingError)
    }

    /// The keys of a directory, in S3's order: those right under it (all nested ones when `recursive`), the page asked for.
    private func list(directory: String, options: BucketImportOptions, address: S3BucketAddress, credential: TemplateCredential,
                      transfer: HTTPTransferOptions) -> Result<[String], Failure> {
        guard let fetcher = context.fetcher else { return .failure(.fetch(.unavailable)) }
        var listing = transfer
        listing.totalTimeout = .seconds(120)
        let lister = S3BucketLister(address: address, credentials: credential.keys, hashing: LibcryptoSigV4Hashing(),
                                    transport: fetcher.transport, clock: context.clock, options: listing)
        let skip = (options.pageNumber - 1) * options.filesPerPage
        let wanted = options.filesPerPage
        let recursive = options.recursive
        return fetcher.blocking { () async -> Result<[String], Failure> in
            var keys: [String] = []
            var seen = 0
            do throws(S3ListingError) {
                try await lister.list(prefix: directory) { page in
                    for object in page.objects {
                        let rest = object.key.utf8.dropFirst(directory.utf8.count)
                        guard !rest.isEmpty, rest.last != UInt8(ascii: "/"), recursive || !rest.contains(UInt8(ascii: "/")) else { continue }
                        seen += 1
                        if seen > skip, keys.count < wanted { keys.append(object.key) }
                    }
                    return keys.count < wanted ? .next : .stop
                }
            } catch {
                return .failure(.listing(error))
            }
            return .success(keys)
        }
    }

    /// The Assembly's failure for `key`: its code by S3's answer, its message naming the key, never a credential.
    private func failure(_ failure: Failure, key: String, step: String) -> AssemblyFailure {
        let (code, reason) = classify(failure)
        return AssemblyFailure(
            code: code.rawValue, message: "Step '\(EchoedText.excerpt(step))' could not import \(RemoteText.escaped(key, limit: 1024)): \(reason).",
            step: step, file: key)
    }

    /// The code and the words of a failure: a missing object, refused credentials, a refused host, anything else.
    private func classify(_ failure: Failure) -> (ServiceErrorCode, String) {
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
