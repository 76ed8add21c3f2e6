/// Remembers what each tus endpoint announced, so that an uploader asks every server OPTIONS only once.
///
/// Callers that ask for the same endpoint while its OPTIONS is in flight wait for that one answer.
/// A failed ask is forgotten, so that a later upload asks again. A waiter that is cancelled cancels
/// the ask it waits for (a run stops all its uploads at once); the others then fail with it.
actor TusCapabilityCache {
    private var known: [String: Task<TusCapabilities, any Error>] = [:]

    /// The endpoint's capabilities, from memory or from `ask` (run once per endpoint while it succeeds).
    func capabilities(
        of endpoint: String, ask: @escaping @Sendable () async throws -> TusCapabilities
    ) async throws -> TusCapabilities {
        let task: Task<TusCapabilities, any Error>
        if let pending = known[endpoint] {
            task = pending
        } else {
            task = Task { try await ask() }
            known[endpoint] = task
        }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            if known[endpoint] == task { known[endpoint] = nil }
            throw error
        }
    }
}
