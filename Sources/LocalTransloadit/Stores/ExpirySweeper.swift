import AssemblyLine
import ConfigFormat
import Dispatch
import Foundation
import Synchronization

/// Deletes the files of Assemblies past their result lifetime, on a thread of its own, now and then.
///
/// Downloads check the lifetime themselves, so the sweeper only keeps the disk from filling up;
/// it wakes every half lifetime (between 1 second and 1 minute) of real time, a timer of its thread,
/// and judges which Assemblies ended a lifetime ago by the service's clock.
final class ExpirySweeper: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    init(service: ServiceContext, lifetime: Duration) {
        let seconds = Double(lifetime.milliseconds) / 1000
        let interval = min(60, max(1, seconds / 2))
        let thread = Thread { [self] in
            var swept = Set<String>()
            while wake.wait(timeout: .now() + interval) == .timedOut {
                let cutoff = service.clock.now.addingTimeInterval(-seconds)
                for id in service.store.ended(atOrBefore: cutoff) where swept.insert(id).inserted {
                    service.expireFiles(of: id)
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
}
