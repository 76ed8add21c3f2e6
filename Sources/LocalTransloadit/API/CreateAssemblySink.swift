import AssemblyLine
import HTTPMessages
import HTTPServer

/// The body of a creating request as it arrives: multipart parts streamed to disk, or a urlencoded form.
///
/// A refusal (bad form, failed auth, invalid instructions) deletes what was written and gives
/// the ID back before the answer; a body that never completes ends in ``CreateAssemblyHandler/abort(_:_:bodyBytes:)``.
final class CreateAssemblySink: HTTPBodySink {
    private let handler: CreateAssemblyHandler
    private let admission: CreateAssemblyHandler.Admission
    /// Set for a multipart body, with its collector.
    private var parser: MultipartParser?
    private var collector: UploadCollector?
    /// The query's fields, which a urlencoded body's fields follow.
    private let query: [FormField]
    private var formBytes: [UInt8] = []
    private var received: Int64 = 0
    private var authorization: CreateAssemblyHandler.Authorization?

    /// A sink for a multipart body read by `parser` into `collector`, or (both nil) a urlencoded one.
    init(handler: CreateAssemblyHandler, admission: CreateAssemblyHandler.Admission, query: [FormField],
         multipart: (parser: MultipartParser, collector: UploadCollector)?) {
        self.handler = handler
        self.admission = admission
        self.query = query
        self.parser = multipart?.parser
        self.collector = multipart?.collector
        collector?.beforeFirstFile = { [unowned self] fields in
            let known = self.query + fields
            if known.firstValue(named: "params") != nil {
                authorization = try handler.authorize(known)
            }
        }
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        received += Int64(chunk.count)
        handler.service.store.arrived(admission.id, bytes: chunk.count)
        if parser != nil, collector != nil {
            do {
                try parser!.feed(chunk, into: &collector!)
            } catch {
                throw refuse(Self.apiError(error))
            }
        } else {
            guard formBytes.count + chunk.count <= CreateAssemblyHandler.formLimit else {
                throw refuse(APIError.invalidForm("the urlencoded body is larger than \(CreateAssemblyHandler.formLimit) bytes"))
            }
            formBytes.append(contentsOf: chunk)
        }
    }

    func finish() -> HTTPResponse {
        var fields = query
        var files: [StagedFile] = []
        if let parser, let collector {
            do {
                try parser.finish()
            } catch {
                return refuse(APIError.invalidForm(error.description)).response
            }
            fields += collector.fields
            files = collector.files
        } else {
            fields += FormURLDecoder.decode(formBytes)
        }
        guard CreateAssemblyHandler.fieldBytes(fields) <= CreateAssemblyHandler.fieldsLimit else {
            return refuse(APIError.fieldsTooLarge(limit: CreateAssemblyHandler.fieldsLimit)).response
        }
        if var early = authorization {
            // fields that came after the first file still count
            early.fields = CreateAssemblyHandler.fields(early.instructions, form: fields)
            authorization = early
        } else {
            do {
                authorization = try handler.authorize(fields)
            } catch {
                return refuse(error).response
            }
        }
        return handler.complete(admission, authorization!, files: files, bodyBytes: received)
    }

    func abort(_ reason: HTTPAbortReason) {
        collector?.discardAll()
        handler.abort(admission, authorization, bodyBytes: received)
    }

    /// Cleans up after a refused body and makes the refusal's answer.
    private func refuse(_ error: APIError) -> HTTPRejection {
        collector?.discardAll()
        handler.service.store.release(admission.id)
        return HTTPRejection(error.about(admission.id).response(urls: admission.urls))
    }

    /// The API error for whatever stopped the multipart parser.
    private static func apiError(_ error: any Error) -> APIError {
        switch error {
        case let api as APIError: return api
        case let form as FormDataError: return .invalidForm(form.description)
        case let write as FileWriter.WriteError: return .internalError(write.description)
        default: return .internalError(FileFailureText.reason(of: error))
        }
    }
}
