/// What makes a file "the same file" for incremental runs: its real path, size and modification time.
public struct FileIdentity: Sendable, Hashable, Codable {
    public var path: String
    public var size: Int64
    public var modifiedNanoseconds: Int64

    public init(path: String, size: Int64, modifiedNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The identity of a planned file.
    public init(_ file: PlannedFile) {
        self.init(path: file.path, size: file.size, modifiedNanoseconds: file.modifiedNanoseconds)
    }
}
