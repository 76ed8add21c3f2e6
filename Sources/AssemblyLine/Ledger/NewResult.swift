/// One result file of a completed Assembly, as the pipeline hands it to the ledger.
///
/// Every field the service may leave out is optional (node-sdk's result schema): a result without
/// `size` or `md5hash` is downloaded and checked against what is present, and the ledger keeps
/// what could not be checked.
package struct NewResult: Sendable, Hashable {
    /// What becomes of a result.
    package enum Delivery: Sendable, Hashable {
        /// Downloaded to this path under `output.dir`, verified.
        case download(to: String)
        /// Stored by an export Robot into the customer's storage: recorded where it went, not fetched.
        case exported
        /// Not downloaded (a step `output.steps` leaves out, or a result without a URL), and not the file's result.
        case recorded
    }

    /// The inputs of its Assembly it was made from, as its `field` or `original_id`s name them.
    package var source: ResultSource
    /// The Assembly step that produced it (`:original`, `resized`, ...).
    package var step: String
    /// Transloadit's `id` of the result, when it has one.
    package var remoteID: String?
    /// The result's file name as the service names it.
    package var name: String
    /// Where it is (the `ssl_url`, or `url`): Transloadit's temporary storage, or the customer's own.
    package var url: String?
    /// The size in bytes the service reports; the download must match it.
    package var size: Int64?
    /// The service's `md5hash`, when given; the download must match it.
    package var md5: String?
    package var mime: String?
    package var width: Int?
    package var height: Int?
    /// True when the URL is temporary: it expires with the results' lifetime and refuses too many fetches.
    package var isTemporary: Bool
    package var delivery: Delivery

    package init(source: ResultSource, step: String, remoteID: String?, name: String, url: String?, size: Int64?,
                md5: String?, mime: String?, width: Int?, height: Int?, isTemporary: Bool = true, delivery: Delivery) {
        self.source = source
        self.step = step
        self.remoteID = remoteID
        self.name = name
        self.url = url
        self.size = size
        self.md5 = md5
        self.mime = mime
        self.width = width
        self.height = height
        self.isTemporary = isTemporary
        self.delivery = delivery
    }

    /// The input file it was made from alone (`FileRecord.index`); nil when it was made from several, or from none of the Assembly's.
    package var fileIndex: Int? {
        if case let .file(index) = source { index } else { nil }
    }

    /// Where the verified download goes; nil for a result that is recorded, not downloaded.
    package var outputPath: String? {
        if case let .download(path) = delivery { path } else { nil }
    }
}
