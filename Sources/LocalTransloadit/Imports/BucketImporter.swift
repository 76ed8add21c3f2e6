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
}
