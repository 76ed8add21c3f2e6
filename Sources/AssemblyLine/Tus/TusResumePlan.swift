/// Which of a shard's pending files an Assembly still lacks over tus, and where each one continues.
///
/// What the Assembly lacks comes from its `uploads` and `tus_uploads`, as node-sdk's
/// `resumeAssemblyUploads` decides it, never from `ok` (an Assembly may say EXECUTING once its first
/// file is in). A file the Assembly lists as uploaded, or whose recorded upload is complete, is not sent again.
/// An unfinished upload continues at the URL the Assembly names for it now (its machine may have
/// changed; that URL is recorded first, at offset 0, as a new upload), else at the URL the ledger
/// recorded, unless that one is under another tus endpoint: then the file starts over.
package struct TusResumePlan: Sendable, Hashable {
    /// One file to upload, and where an earlier try left it.
    package struct Upload: Sendable, Hashable {
        package var fileIndex: Int
        package var job: TusUploadJob
        package var checkpoint: TusUploadCheckpoint?

        package init(fileIndex: Int, job: TusUploadJob, checkpoint: TusUploadCheckpoint?) {
            self.fileIndex = fileIndex
            self.job = job
            self.checkpoint = checkpoint
        }
    }

    /// An upload URL the Assembly names that the ledger does not hold yet.
    package struct Renamed: Sendable, Hashable {
        package var fileIndex: Int
        package var url: String
        package var length: Int64
    }

    package var uploads: [Upload]
    /// Written to the ledger before the uploads start.
    package var renamed: [Renamed]

    /// The plan for `pending` files of an attempt whose Assembly answered `status`, with the uploads the ledger holds for it.
    package init(status: AssemblyStatus, assemblyURL: String, tusURL: String, recorded: [UploadRecord], pending: [FileRecord]) {
        let arrived = Set(status.uploads.compactMap(\.field) + status.tusUploads.filter(\.finished).compactMap(\.fieldname))
        let named = Dictionary(status.tusUploads.filter { !$0.finished }.compactMap { upload in
            upload.fieldname.flatMap { field in upload.uploadURL.map { (field, $0) } }
        }, uniquingKeysWith: { _, last in last })
        let stored = Dictionary(recorded.map { ($0.fileIndex, $0) }, uniquingKeysWith: { _, last in last })
        var uploads: [Upload] = []
        var renamed: [Renamed] = []
        for record in pending {
            let field = ResultMapper.field(forFile: record.index)
            guard !arrived.contains(field), stored[record.index]?.isComplete != true else { continue }
            var checkpoint: TusUploadCheckpoint?
            if let url = named[field], url != stored[record.index]?.url {
                renamed.append(Renamed(fileIndex: record.index, url: url, length: record.file.size))
                checkpoint = TusUploadCheckpoint(url: url, offset: 0)
            } else if let row = stored[record.index], row.url.hasPrefix(tusURL) {
                checkpoint = TusUploadCheckpoint(row)
            }
            let job = TusUploadJob(file: record.file, endpoint: tusURL, assemblyURL: assemblyURL, fieldname: field,
                                   filename: PathText.lastComponent(of: record.file.relativePath))
            uploads.append(Upload(fileIndex: record.index, job: job, checkpoint: checkpoint))
        }
        self.uploads = uploads
        self.renamed = renamed
    }
}
