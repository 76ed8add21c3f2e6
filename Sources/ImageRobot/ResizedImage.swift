import AssemblyLine

/// What a resize wrote: the output's size, format and length, and the plan that made it.
public struct ResizedImage: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    /// The output file's length in bytes.
    public var byteCount: Int64
    /// The geometry that was applied.
    public var plan: ResizePlan

    public init(width: Int, height: Int, format: ImageFormat, byteCount: Int64, plan: ResizePlan) {
        self.width = width
        self.height = height
        self.format = format
        self.byteCount = byteCount
        self.plan = plan
    }

    /// The output's MIME type, for a result's `mime`.
    public var mimeType: String { format.mimeType }
}
