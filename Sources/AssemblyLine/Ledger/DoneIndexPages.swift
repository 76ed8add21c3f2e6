/// The done index read a page at a time, in path order: how an incremental night merges it against its plan.
///
/// A night of a million unchanged files holds one page of the index, never the index: the pages come
/// in the order of the set's unique key (path bytes, size, modification time), which is the order the
/// plan's files take by their real paths, so the two are walked side by side.
package protocol DoneIndexPages: Sendable {
    /// Up to `limit` files of the set of `jobKey` and the recipe, each with the outputs the run that did it last recorded,
    /// in path order after `cursor` (nil: from the first); fewer than `limit` when the set ends. The outputs' MD5s are read
    /// only with `md5s` (a night that checks no checksums leaves them nil: a string an output fewer).
    func completedFiles(jobKey: String, recipeFingerprint: String, after cursor: FileIdentity?, limit: Int, md5s: Bool) async throws -> [DoneIndexRow]
}

extension DoneIndexPages {
    /// Every file the job's runs did under the recipe and that runs since kept confirming, each with the outputs the run
    /// that did it last recorded, read a page at a time; the sets of the job's keys, its own first (a file in both keeps
    /// the first's entry). What `check` and a batch's coverage look up by identity; a night merges the pages instead.
    package func completedFiles(job: ManifestJob, recipeFingerprint: String) async throws -> [FileIdentity: CompletedFile] {
        var files: [FileIdentity: CompletedFile] = [:]
        for set in DoneIndexSet.of(job, recipeFingerprint: recipeFingerprint, role: .own) {
            try await DoneIndexReadAhead(set: set, index: self, pageSize: DoneIndexSet.pageSize, md5s: true).forEachPage { page in
                for row in page where files[row.identity] == nil {
                    files[row.identity] = row.file
                }
            }
        }
        return files
    }
}

/// One file of the done index as a page gives it: what identifies it, and what the index holds of it.
package struct DoneIndexRow: Sendable, Hashable {
    package var identity: FileIdentity
    package var file: CompletedFile

    package init(identity: FileIdentity, file: CompletedFile) {
        self.identity = identity
        self.file = file
    }
}

/// A set of the done index a night reads: a job key under a recipe, and what its files are to the night.
package struct DoneIndexSet: Sendable, Hashable {
    package var jobKey: String
    package var recipeFingerprint: String
    package var role: Role

    /// The files a read of the index asks for at once.
    package static let pageSize = 4_096

    /// What the files of a set are to a night.
    package enum Role: Sendable, Hashable {
        /// The manifest's own recipe: its files are skipped while their outputs are in place.
        case own
        /// The job's earlier recipe, accepted (`--accept-recipe`): its files are skipped as the own recipe's are, and counted as carried.
        case accepted
        /// The job's earlier recipe, not accepted: its files are sent and counted as made again.
        case earlier
    }

    package init(jobKey: String, recipeFingerprint: String, role: Role) {
        self.jobKey = jobKey
        self.recipeFingerprint = recipeFingerprint
        self.role = role
    }

    /// The sets of `job` under `recipeFingerprint` in the order a read takes them (a file in two keeps the first's entry).
    package static func of(_ job: ManifestJob, recipeFingerprint: String, role: Role) -> [DoneIndexSet] {
        job.keys.map { DoneIndexSet(jobKey: $0, recipeFingerprint: recipeFingerprint, role: role) }
    }
}
