import AssemblyLine
import Dispatch
import Synchronization

/// Runs transfers of the ``HTTPTransport`` port from an Assembly's worker thread, which waits for each.
///
/// The workers are threads of their own (``ExecutionQueue``), never threads of Swift's cooperative pool: a worker
/// blocked here cannot starve the task it waits for, which runs on the pool (and the transport's own thread).
/// When the service stops, ``stop()`` aborts the transfers in flight, so that a stop does not wait for a long import.
struct ImportFetcher: Sendable {
    let transport: any HTTPTransport
    private let stopping = Stopping()

    /// Whether the service is stopping, shared by the copies of the fetcher.
    private final class Stopping: Sendable {
        let flag = Atomic<Bool>(false)
    }

    init(transport: any HTTPTransport) {
        self.transport = transport
    }

    /// True once the service is stopping: what a worker fetched since is not the Assembly's outcome.
    var isStopped: Bool { stopping.flag.load(ordering: .sequentiallyConsistent) }

    /// Aborts every transfer in flight (the transport is the service's own) and refuses later ones.
    func stop() {
        stopping.flag.store(true, ordering: .sequentiallyConsistent)
        transport.cancelAll()
    }

    /// Where the value of the awaited work waits for the worker.
    private final class Outcome<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    /// Sends `request` and blocks the calling thread until its response or failure.
    func send(_ request: HTTPRequestSpec, to destination: HTTPDestination, options: HTTPTransferOptions) -> Result<HTTPResponseInfo, TransportError> {
        let transport = transport
        guard !isStopped else { return .failure(.cancelled(endpoint: TransportEndpoint(url: request.url).description)) }
        return blocking { () async -> Result<HTTPResponseInfo, TransportError> in
            do throws(TransportError) {
                return .success(try await transport.send(request, to: destination, options: options, progress: nil))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `work` in a task and blocks the calling thread (a worker, never the pool's) until it returns.
    func blocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let outcome = Outcome<Value>()
        Task {
            let value = await work()
            outcome.value.withLock { $0 = value }
            outcome.done.signal()
        }
        outcome.done.wait()
        return outcome.value.withLock { $0! }
    }
}
