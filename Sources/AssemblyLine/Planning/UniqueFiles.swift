/// The files found so far, one per real path: of several paths to one file (symlinks), the first by relative path.
///
/// De-duplicating while the walk goes on keeps only the plan in memory, never a list with repeats.
struct UniqueFiles {
    private var files: [PlannedFile] = []
    private var positionByRealPath: [PathKey: Int] = [:]

    /// Adds `file`, or lets it replace the file of the same real path when its relative path sorts first.
    mutating func add(_ file: PlannedFile) {
        let key = PathKey(file.path)
        if let position = positionByRealPath[key] {
            if PathText.precedes(file.relativePath, files[position].relativePath) {
                files[position] = file
            }
        } else {
            positionByRealPath[key] = files.count
            files.append(file)
        }
    }

    /// The files in the order found, leaving this collection empty (and its index freed).
    mutating func take() -> [PlannedFile] {
        positionByRealPath = [:]
        defer { files = [] }
        return files
    }
}

/// A path as a dictionary key, compared and hashed by its bytes so canonically equivalent names stay distinct.
private struct PathKey: Hashable {
    var path: String

    init(_ path: String) {
        self.path = path
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        PathText.same(lhs.path, rhs.path)
    }

    func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
