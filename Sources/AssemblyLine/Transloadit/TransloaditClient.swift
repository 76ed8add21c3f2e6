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

    package let transport: any HTTPTransport
    /// The API's base URL, without a trailing slash.
    package let endpoint: String
    package let options: HTTPTransferOptions

    package init(transport: any HTTPTransport, endpoint: String, options: HTTPTransferOptions = HTTPTransferOptions()) {
        self.transport = transport
        self.endpoint = endpoint
        self.options = options
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
        return try await exchange(request, progress: progress)
    }

    /// The Assembly's status, or nil when the service does not know it (404).
    package func status(url: String) async throws(TransloaditError) -> AssemblyStatus? {
        do {
            return try await exchange(.get(url), progress: nil)
        } catch where error.httpStatus == 404 {
            return nil
        }
    }

    /// Downloads a result into `path` (created or truncated); returns the bytes received.
    package func download(url: String, to path: String, progress: TransferProgressHandler? = nil) async throws(TransloaditError) -> Int64 {
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(.get(url), to: .file(path: path), options: options, progress: progress)
        } catch {
            throw TransloaditError(error)
        }
        guard response.isSuccess else {
            throw TransloaditError(status: response.status, body: nil, retryAfter: response.header("Retry-After"))
        }
        return response.bytesReceived
    }

    private func exchange(_ request: HTTPRequestSpec, progress: TransferProgressHandler?) async throws(TransloaditError) -> AssemblyStatus {
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(request, to: .memory, options: options, progress: progress)
        } catch {
            throw TransloaditError(error)
        }
        let status = AssemblyStatus.decode(response.bodyBytes)
        guard response.isSuccess, let status, !(status.error.map(Retryability.isRateLimit) ?? false) else {
            throw TransloaditError(status: response.status, body: status, retryAfter: response.header("Retry-After"))
        }
        return status
    }
}
