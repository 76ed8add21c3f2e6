import Synchronization

/// Counts the fetches of each served file: Transloadit refuses a temporary file fetched more than 10 times.
final class FileFetchCounter: Sendable {
    /// The fetches a temporary file is served for.
    static let limit = 10

    private let counts = Mutex<[String: Int]>([:])

    /// Counts one more fetch of the file; false when it is past the limit.
    func admit(assembly: String, file: String) -> Bool {
        counts.withLock { counts in
            let count = counts["\(assembly)/\(file)", default: 0] + 1
            counts["\(assembly)/\(file)"] = count
            return count <= Self.limit
        }
    }
}
