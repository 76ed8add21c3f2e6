
/// What a resize wrote: the output's size, format and length, and the plan that made it.
package struct ResizedImage: Sendable, Hashable {
    package var width: Int
    package var height: Int
    package var format: ImageFormat
    /// The output file's length in bytes.
    package var byteCount: Int64
    /// The geometry that was applied.
    package var plan: ResizePlan

    package init(width: Int, height: Int, format: ImageFormat, byteCount: Int64, plan: ResizePlan) {
        self.width = width
        self.height = height
        self.format = format
        self.byteCount = byteCount
        self.plan = plan
    }

    /// The output's MIME type, for a result's `mime`.
    package var mimeType: String { format.mimeType }
}
