import HTTPMessages

/// One file to upload over tus into an Assembly: the file as planned, the server's endpoint, and the names it goes by.
package struct TusUploadJob: Sendable, Hashable {
    /// The file as the plan recorded it; a file whose size or modification time changed is refused.
    package var file: PlannedFile
    /// The tus creation endpoint: the Assembly status's `tus_url`.
    package var endpoint: String
    /// The Assembly's status URL (`assembly_ssl_url`, else `assembly_url`), sent as `assembly_url` metadata.
    package var assemblyURL: String
    /// The form field name the Assembly gives the upload (`file_<file index>` maps results back to inputs).
    package var fieldname: String
    /// The file name the Assembly gives the upload.
    package var filename: String

    package init(file: PlannedFile, endpoint: String, assemblyURL: String, fieldname: String, filename: String) {
        self.file = file
        self.endpoint = endpoint
        self.assemblyURL = assemblyURL
        self.fieldname = fieldname
        self.filename = filename
    }

    /// The `Upload-Metadata` of the creation request: `assembly_url`, `fieldname`, `filename` and
    /// `filetype` (the MIME type, from the name), in that order, as tus-js-client and Uppy send them:
    /// tus servers no one here wrote refuse a HEAD without `filetype` (tuspyserver `routes/core.py`).
    package var metadata: TusUploadMetadata {
        TusUploadMetadata([("assembly_url", assemblyURL), ("fieldname", fieldname), ("filename", filename),
                           ("filetype", MediaType.forPath(filename))])
    }
}
