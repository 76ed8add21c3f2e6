import Synchronization

/// Follows one Assembly's change stream in the background, and wakes a poll that waits when the stream says something that matters.
///
/// The stream is a hint, never the record: `assembly_finished` or `assembly_error` wakes the waiting
/// poll at once, and the status request that follows says what is true
/// (as Uppy and the Java SDK fetch the status after `assembly_finished`). A stream that cannot be
/// opened, or that drops, wakes the poll too and is no longer ``isLive``: polling goes on at its own pace.
package final class AssemblyUpdateWatch: Sendable {
    /// Why ``wait(atMost:clock:)`` returned.
    package enum Wake: Sendable, Hashable {
        /// The stream said the Assembly finished or failed.
        case changed
        /// The stream could not be opened or ended; `reason` says how.
        case streamEnded(reason: String)
        /// Nothing came within the wait.
        case timedOut
    }

    private struct State {
        var parser = ServerSentEventParser()
        var wake: Wake?
        var sleeper: Task<Void, any Error>?
        var live = true
        var reader: Task<Void, Never>?
    }

    /// The stream's URL.
    package let url: String
    private let state = Mutex(State())

    private let onResult: @Sendable (String, AssemblyFile) -> Void

    /// Opens the stream at `url` through `client` and follows it until ``close()``; each result it
    /// announces goes to `onResult` (its step and file), on the transport's thread.
    package init(url: String, client: TransloaditClient, onResult: @escaping @Sendable (String, AssemblyFile) -> Void = { _, _ in }) {
        self.url = url
        self.onResult = onResult
        let receiver = HTTPStreamReceiver { [weak self] chunk in self?.receive(chunk) }
        let reader = Task { [weak self] in
            let reason: String
            do {
                let status = try await client.followUpdates(url: url, receiver: receiver)
                reason = status == 200 ? "the service ended it" : "HTTP \(status)"
            } catch {
                reason = "\(error)"
            }
            self?.ended(reason)
        }
        state.withLock { $0.reader = reader }
    }

    deinit {
        close()
    }

    /// False once the stream could not be opened, ended or was closed.
    package var isLive: Bool { state.withLock { $0.live } }

    /// Waits until the stream says something that matters, ends, or `duration` passes on `clock`.
    package func wait(atMost duration: Duration, clock: any PipelineClock) async throws -> Wake {
        let sleeper: Task<Void, any Error>? = state.withLock { state in
            guard state.wake == nil else { return nil }
            let sleeper = Task { try await clock.sleep(for: duration) }
            state.sleeper = sleeper
            return sleeper
        }
        if let sleeper {
            await withTaskCancellationHandler {
                _ = await sleeper.result
            } onCancel: {
                sleeper.cancel()
            }
        }
        try Task.checkCancellation()
        return state.withLock { state in
            defer {
                state.wake = nil
                state.sleeper = nil
            }
            return state.wake ?? .timedOut
        }
    }

    /// Stops following the stream; a waiting poll goes on waiting out its time.
    package func close() {
        let reader = state.withLock { state in
            state.live = false
            return state.reader.take()
        }
        reader?.cancel()
    }

    private func receive(_ chunk: [UInt8]) {
        let updates = state.withLock { state in
            let updates = state.parser.feed(chunk).compactMap(AssemblyUpdate.init)
            if updates.contains(where: { $0 == .finished || $0 == .failed }) {
                state.wake = .changed
                state.sleeper?.cancel()
            }
            return updates
        }
        for case let .resultFinished(step, file) in updates {
            onResult(step, file)
        }
    }

    private func ended(_ reason: String) {
        state.withLock { state in
            guard state.live else { return }
            state.live = false
            state.reader = nil
            if state.wake == nil {
                state.wake = .streamEnded(reason: reason)
            }
            state.sleeper?.cancel()
        }
    }
}
