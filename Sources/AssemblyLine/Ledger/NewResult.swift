/// One result file of a completed Assembly, as the pipeline hands it to the ledger.
package struct NewResult: Sendable, Hashable, Codable {
    /// The input file it was made from (`FileRecord.index`); nil when it maps to no input.
    package var fileIndex: Int?
    /// The Assembly step that produced it (`:original`, `resized`, ...).
    package var step: String
    /// Transloadit's `id` of the result.
    package var remoteID: String
    /// The result's file name as the service names it.
    package var name: String
    /// Where to download it from (the `ssl_url`, or `url`).
    package var url: String
    /// The size in bytes the service reports; the download must match it.
    package var size: Int64
    /// The service's `md5hash`, when given; the download must match it.
    package var md5: String?
    package var mime: String?
    package var width: Int?
    package var height: Int?
    /// Where the verified download goes, from the manifest's output layout.
    package var outputPath: String

    package init(fileIndex: Int?, step: String, remoteID: String, name: String, url: String, size: Int64,
                md5: String?, mime: String?, width: Int?, height: Int?, outputPath: String) {
        self.fileIndex = fileIndex
        self.step = step
        self.remoteID = remoteID
        self.name = name
        self.url = url
        self.size = size
        self.md5 = md5
        self.mime = mime
        self.width = width
        self.height = height
        self.outputPath = outputPath
    }
}
