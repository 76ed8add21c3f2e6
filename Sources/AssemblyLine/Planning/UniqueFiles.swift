/// The files found so far, one per real path: of several paths to one file (symlinks), the first by relative path.
///
/// De-duplicating while the walk goes on keeps only the plan in memory, never a list with repeats.
/// The index holds a 64-bit hash of each real path and the file's position (12 bytes a file, not a
/// second reference to the path); the rare paths whose hash an earlier, different path has are
/// indexed by the path itself.
struct UniqueFiles {
    private var files: [PlannedFile] = []
    private var positionByHash: [UInt64: UInt32] = [:]
    private var positionBySharedHash: [PathKey: Int] = [:]
    private let hash: (String) -> UInt64

    /// A collection that hashes real paths with `hash` (FNV-1a; a test passes one that collides).
    init(hash: @escaping (String) -> UInt64 = FNVHash.of) {
        self.hash = hash
    }

    /// Adds `file`, or lets it replace the file of the same real path when its relative path sorts first.
    mutating func add(_ file: PlannedFile) {
        let key = hash(file.path)
        let position: Int
        if let hashed = positionByHash[key] {
            if PathText.same(files[Int(hashed)].path, file.path) {
                position = Int(hashed)
            } else if let shared = positionBySharedHash[PathKey(file.path)] {
                position = shared
            } else {
                positionBySharedHash[PathKey(file.path)] = files.count
                files.append(file)
                return
            }
        } else {
            positionByHash[key] = UInt32(files.count)
            files.append(file)
            return
        }
        if PathText.precedes(file.relativePath, files[position].relativePath) {
            files[position] = file
        }
    }

    /// The files in the order found, leaving this collection empty (and its index freed).
    mutating func take() -> [PlannedFile] {
        positionByHash = [:]
        positionBySharedHash = [:]
        defer { files = [] }
        return files
    }
}
