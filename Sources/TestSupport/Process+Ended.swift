import Foundation

extension Process {
    /// Waits until the process has ended without holding a thread: Foundation's `waitUntilExit` spins a
    /// run loop on Linux, burning a core for as long as the child runs. A cancelled task (a test past its time limit)
    /// stops waiting: its sleeps would throw at once, and the wait spun on a core for as long as the child lived.
    package func ended() async {
        while isRunning, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the process has ended, on a thread that may block (not the cooperative pool), without spinning.
    package func waitUntilEnded() {
        while isRunning {
            usleep(2_000)
        }
    }
}
