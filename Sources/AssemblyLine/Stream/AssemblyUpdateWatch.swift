import Synchronization

/// Follows one Assembly's change stream in the background, and wakes a poll that waits when the stream says something that matters.
///
/// The stream is a hint, never the record: `assembly_finished` or `assembly_error` wakes the waiting
/// poll at once, and the status request that follows says what is true
/// (as Uppy and the Java SDK fetch the status after `assembly_finished`). A result it announces wakes
/// the wait with the result, so that it can be downloaded before the Assembly completes. A stream that
/// cannot be opened, or that drops, wakes the poll too and is no longer ``isLive``: polling goes on at its own pace.
package final class AssemblyUpdateWatch: Sendable {
    /// Why ``wait(atMost:clock:)`` returned.
    package enum Wake: Sendable, Hashable {
        /// The stream said the Assembly finished or failed.
        case changed
        /// The stream could not be opened or ended; `reason` says how.
        case streamEnded(reason: String)
        /// Nothing came within the wait.
        case timedOut
        /// The stream announced these results, in order.
        case announced([AnnouncedResult])
    }

    /// A result the stream announced: its step and the file as the status will list it.
    package struct AnnouncedResult: Sendable, Hashable {
        package var step: String
        package var file: AssemblyFile

        package init(step: String, file: AssemblyFile) {
            self.step = step
            self.file = file
        }
    }

    private struct State {
        var parser = ServerSentEventParser()
        var wake: Wake?
        var announced: [AnnouncedResult] = []
        var sleeper: Task<Void, any Error>?
        var live = true
        var reader: Task<Void, Never>?
    }

    /// The stream's URL.
    package let url: String
    private let state = Mutex(State())

    /// Opens the stream at `url` through `client` and follows it until ``close()``.
    package init(url: String, client: TransloaditClient) {
        self.url = url
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
    ///
    /// The Assembly's end comes first, then the results announced since the last wait, then the stream's end.
    package func wait(atMost duration: Duration, clock: any PipelineClock) async throws -> Wake {
        let sleeper: Task<Void, any Error>? = state.withLock { state in
            guard state.wake == nil, state.announced.isEmpty else { return nil }
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
            state.sleeper = nil
            if state.wake != .changed, !state.announced.isEmpty {
                defer { state.announced = [] }
                return .announced(state.announced)
            }
            defer { state.wake = nil }
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
        state.withLock { state in
            let updates = state.parser.feed(chunk).compactMap(AssemblyUpdate.init)
            for case let .resultFinished(step, file) in updates {
                state.announced.append(AnnouncedResult(step: step, file: file))
            }
            if updates.contains(where: { $0 == .finished || $0 == .failed }) {
                state.wake = .changed
            }
            if state.wake != nil || !state.announced.isEmpty {
                state.sleeper?.cancel()
            }
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
