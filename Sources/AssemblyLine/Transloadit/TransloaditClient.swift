import HTTPMessages

/// The calls the orchestrator makes to a Transloadit-compatible Assembly API, over the HTTP port.
///
/// Every answer is read as an ``AssemblyStatus``; anything but a usable answer is a ``TransloaditError``
/// that says whether a retry can help.
package struct TransloaditClient: Sendable {
    /// One file to send in the creating request, under a form field name that maps results back to it.
    package struct Upload: Sendable, Hashable {
        package var field: String
        package var path: String
        package var filename: String

        package init(field: String, path: String, filename: String) {
            self.field = field
            self.path = path
            self.filename = filename
        }
    }

    /// The most redirects a result download follows (storage and CDNs redirect; loops do not end).
    package static let maxDownloadRedirects = 5

    package let transport: any HTTPTransport
    /// The API's base URL, without a trailing slash.
    package let endpoint: String
    package let options: HTTPTransferOptions
    /// Which result URLs of this endpoint are fetched, and from which peers.
    package let resultURLs: ResultURLRule

    package init(transport: any HTTPTransport, endpoint: String, options: HTTPTransferOptions = HTTPTransferOptions()) {
        self.transport = transport
        self.endpoint = endpoint
        self.options = options
        resultURLs = ResultURLRule(endpoint: endpoint)
    }

    /// Creates the Assembly `id` with signed params, sending the files in the same multipart request.
    package func create(
        id: AssemblyID, params: String, signature: String, uploads: [Upload], expectedTusUploads: Int? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(TransloaditError) -> AssemblyStatus {
        var form = MultipartFormBody()
        form.append(name: "params", value: params)
        form.append(name: "signature", value: signature)
        if let expectedTusUploads {
            form.append(name: "tus_num_expected_upload_files", value: String(expectedTusUploads))
        }
        for upload in uploads {
            form.appendFile(name: upload.field, path: upload.path, filename: upload.filename)
        }
        let request: HTTPRequestSpec
        do {
            request = try .multipart(.post, "\(endpoint)/assemblies/\(id)", form: form)
        } catch {
            throw TransloaditError(error)
        }
        let (response, status) = try await exchange(request, within: RequestDeadline.transfer(bytes: request.body.contentLength),
                                                    progress: progress)
        return try Self.usable(status, of: response)
    }

    /// The Assembly's status, or nil when the answer says the service does not know it.
    ///
    /// "Not found" is the body's word (`ASSEMBLY_NOT_FOUND` and its kin), with a 200 as with a 404;
    /// a bare 404 from a machine that is gone is an error like any other. An Assembly that ended in
    /// error is its status whatever the HTTP status it came with (docs/transloadit-fidelity.md). The answer
    /// must come within `within` (a poll's time left), and never takes longer than ``RequestDeadline/answer``.
    package func status(url: String, within: Duration = RequestDeadline.answer) async throws(TransloaditError) -> AssemblyStatus? {
        let (response, status) = try await exchange(.get(url), within: within, progress: nil)
        if let code = status?.error, code.meansAssemblyNotFound { return nil }
        if let status, status.isAssemblyError { return status }
        return try Self.usable(status, of: response)
    }

    /// Cancels the Assembly at `url` (`DELETE`), so that an abandoned one stops costing and stops
    /// counting against the account's running Assemblies; returns its status after the cancel.
    package func cancel(url: String) async throws(TransloaditError) -> AssemblyStatus {
        let (response, status) = try await exchange(HTTPRequestSpec(method: .delete, url: url), within: RequestDeadline.answer, progress: nil)
        return try Self.usable(status, of: response)
    }

    /// Follows the change stream at `url` (`Accept: text/event-stream`) until the service ends it or the
    /// task is cancelled, handing its bytes to `receiver`; returns the answer's HTTP status.
    ///
    /// The stream has no time limit and no low-speed limit: it may stay quiet for as long as the Assembly
    /// runs, and the caller's safety polls, not the stream, decide when an Assembly is overdue.
    package func followUpdates(url: String, receiver: HTTPStreamReceiver) async throws(TransloaditError) -> Int {
        var streaming = options
        streaming.totalTimeout = nil
        streaming.lowSpeed = nil
        do {
            return try await transport.send(.get(url, headers: ["Accept": "text/event-stream"]), to: .stream(receiver),
                                            options: streaming, progress: nil).status
        } catch {
            throw TransloaditError(error)
        }
    }

    /// Downloads a result into `path` (created or truncated), keeping `keepFree` bytes free on its file
    /// system; returns the bytes received.
    ///
    /// Redirects are followed, at most ``maxDownloadRedirects``, never from https to http; no
    /// credentials go with a result request, so none can follow a redirect elsewhere; no connection
    /// goes where results of this endpoint may not come from (``ResultURLRule/peers``), whatever name or
    /// redirect leads there.
    package func download(url: String, to path: String, limit: Int64? = nil, keepFree: Int64? = nil,
                          progress: TransferProgressHandler? = nil) async throws(TransloaditError) -> Int64 {
        var following = options
        following.followRedirects = true
        following.maxRedirects = Self.maxDownloadRedirects
        following.peers = resultURLs.peers
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(.get(url), to: .file(path: path, limit: limit, keepFree: keepFree),
                                                options: following.bounded(by: RequestDeadline.transfer(bytes: limit ?? 0)), progress: progress)
        } catch {
            throw TransloaditError(error)
        }
        guard response.isSuccess else {
            throw TransloaditError(status: response.status, body: nil, retryAfter: response.header("Retry-After"))
        }
        return response.bytesReceived
    }

    /// Sends a request to the API and decodes its answer's body, whatever its status; the whole exchange
    /// ends within `within` (at most ``RequestDeadline/answer`` unless it carries a body).
    func exchange(_ request: HTTPRequestSpec, within: Duration, progress: TransferProgressHandler?)
        async throws(TransloaditError) -> (HTTPResponseInfo, AssemblyStatus?) {
        do {
            let response = try await transport.send(request, to: .memory, options: options.bounded(by: within), progress: progress)
            return (response, AssemblyStatus.decode(response.bodyBytes))
        } catch {
            throw TransloaditError(error)
        }
    }

    /// The status of a 2xx answer without `error`; any other answer is its error, a 2xx carrying `error` too.
    static func usable(_ status: AssemblyStatus?, of response: HTTPResponseInfo) throws(TransloaditError) -> AssemblyStatus {
        guard response.isSuccess, let status, status.error == nil else {
            throw TransloaditError(status: response.status, body: status, retryAfter: response.header("Retry-After"))
        }
        return status
    }
}
