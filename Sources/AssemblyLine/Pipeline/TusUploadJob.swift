/// One file to upload over tus into an Assembly: the file as planned, the server's endpoint, and the names it goes by.
public struct TusUploadJob: Sendable, Hashable {
    /// The file as the plan recorded it; a file whose size or modification time changed is refused.
    public var file: PlannedFile
    /// The tus creation endpoint: the Assembly status's `tus_url`.
    public var endpoint: String
    /// The Assembly's status URL (`assembly_ssl_url`, else `assembly_url`), sent as `assembly_url` metadata.
    public var assemblyURL: String
    /// The form field name the Assembly gives the upload (`file_<file index>` maps results back to inputs).
    public var fieldname: String
    /// The file name the Assembly gives the upload.
    public var filename: String

    public init(file: PlannedFile, endpoint: String, assemblyURL: String, fieldname: String, filename: String) {
        self.file = file
        self.endpoint = endpoint
        self.assemblyURL = assemblyURL
        self.fieldname = fieldname
        self.filename = filename
    }

    /// The `Upload-Metadata` of the creation request: `assembly_url`, `fieldname`, `filename`, in that order.
    public var metadata: TusUploadMetadata {
        TusUploadMetadata([("assembly_url", assemblyURL), ("fieldname", fieldname), ("filename", filename)])
    }
}
