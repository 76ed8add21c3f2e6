import AssemblyLine
import ConfigFormat
import Dispatch
import Foundation
import Synchronization

/// Deletes the files of Assemblies past their result lifetime, on a thread of its own, now and then.
///
/// Downloads check the lifetime themselves, so the sweeper only keeps the disk from filling up;
/// it runs every half lifetime (between 1 second and 1 minute).
final class ExpirySweeper: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    init(store: AssemblyStore, lifetime: Duration) {
        let seconds = Double(lifetime.milliseconds) / 1000
        let interval = min(60, max(1, seconds / 2))
        let thread = Thread { [self] in
            var swept = Set<String>()
            while wake.wait(timeout: .now() + interval) == .timedOut {
                let now = Date()
                for record in store.newestFirst() where !swept.contains(record.id) {
                    guard let end = record.executionEnd, end.addingTimeInterval(seconds) <= now else { continue }
                    Self.removeFiles(of: record, store: store)
                    swept.insert(record.id)
                }
            }
            ended.signal()
        }
        thread.name = "expiry-sweeper"
        thread.start()
    }

    /// Stops the thread and waits for it.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        wake.signal()
        ended.wait()
    }

    /// Deletes every file an Assembly holds on disk (its record stays, so its status still answers).
    static func removeFiles(of record: AssemblyRecord, store: AssemblyStore) {
        let directory = "\(store.directory(of: record.id))/files"
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
            try? manager.removeItem(atPath: "\(directory)/\(name)")
        }
    }
}
