import AssemblyLine

extension RunID {
    /// The run a command's argument names: nil for `latest`.
    /// - Throws: ``UsageError`` naming the expected form.
    static func argument(_ text: String) throws -> RunID? {
        guard text != "latest" else { return nil }
        do {
            return try RunID(parsing: text)
        } catch {
            throw UsageError("'\(text)' is not a run ID (\(error)); expected an ID such as 20261130T210501Z-3f9a2c, or latest")
        }
    }
}
