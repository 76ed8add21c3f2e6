import AssemblyLine

/// Sets of the done index in memory, paged in path order as the ledger pages them: what a test's night reads.
struct DoneIndexFake: DoneIndexPages {
    /// Each job key's files; the recipe is not told apart.
    let sets: [String: [FileIdentity: CompletedFile]]

    func completedFiles(jobKey: String, recipeFingerprint: String, after cursor: FileIdentity?, limit: Int) async throws -> [DoneIndexRow] {
        let rows = (sets[jobKey] ?? [:]).map { DoneIndexRow(identity: $0.key, file: $0.value) }
            .filter { row in cursor.map { FileIdentity.order($0, row.identity) < 0 } ?? true }
            .sorted { FileIdentity.order($0.identity, $1.identity) < 0 }
        return Array(rows.prefix(limit))
    }
}
