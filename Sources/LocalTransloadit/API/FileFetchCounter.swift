import Synchronization

/// Counts the fetches of each served file: Transloadit refuses a temporary file fetched more than 10 times.
final class FileFetchCounter: Sendable {
    /// The fetches a temporary file is served for.
    static let limit = 10

    /// The fetches so far of each file, by Assembly.
    private let counts = Mutex<[String: [String: Int]]>([:])

    /// Counts one more fetch of the file; false when it is past the limit.
    func admit(assembly: String, file: String) -> Bool {
        counts.withLock { counts in
            let count = counts[assembly, default: [:]][file, default: 0] + 1
            counts[assembly, default: [:]][file] = count
            return count <= Self.limit
        }
    }

    /// Whether each of these files of the Assembly was fetched at least once.
    func fetchedEach(assembly: String, files: [String]) -> Bool {
        counts.withLock { counts in
            let fetched = counts[assembly, default: [:]]
            return files.allSatisfy { fetched[$0, default: 0] > 0 }
        }
    }

    /// Drops the counts of an Assembly whose files are gone.
    func forget(assembly: String) {
        _ = counts.withLock { $0.removeValue(forKey: assembly) }
    }
}
