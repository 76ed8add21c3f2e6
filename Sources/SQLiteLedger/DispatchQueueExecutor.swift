import Dispatch

/// A serial executor that runs an actor's jobs on one `DispatchQueue`, off the cooperative thread pool.
///
/// SQLite calls block (disk I/O, busy waits); on this executor they block the queue's thread
/// instead of one of the few threads that run every task of the process.
final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the calling code runs on this executor's queue.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
