import Foundation
import Synchronization

/// The walks of a root's directories, as many at once as there are cores, handed back in order: how
/// ``DirectoryWalker`` walks a tree on every core.
///
/// Each directory is walked by a `DirectoryWalk` of its own on a thread of the pool, which keeps what it found
/// until this thread takes it; at most a few directories ahead of the one taken are walked, so that what is held
/// stays a few directories' files. Each file's `stat` (and `access`, ``DirectoryWalker/asksReadability``) are the calls
/// one walk makes, made by the same user: the kernel answers them as it would (NFS root squash and ACLs are the file
/// system's, whichever thread asks).
struct SubtreeWalks<Item: Sendable>: Sendable {
    let include: [GlobPattern]
    let exclude: [GlobPattern]
    let asksReadability: Bool
    let subtrees: [DirectoryWalk.Subtree]
    let take: @Sendable (DirectoryWalker.Found) -> Item

    /// What the walk of one directory found.
    struct Walked: Sendable {
        var walk: DirectoryWalk
        var items: [Item]
    }

    /// Walks the directories on `cores` threads and calls `use` with each one's findings, in order, on this thread.
    func run(cores: Int, _ use: (Walked) -> Void) {
        guard cores > 1, subtrees.count > 1 else {
            subtrees.forEach { use(walked($0)) }
            return
        }
        let ahead = 4 * cores
        let handover = Handover()
        let room = DispatchSemaphore(value: ahead)
        let group = DispatchGroup()
        for _ in 0..<min(cores, subtrees.count) {
            DispatchQueue.global().async(group: group) {
                while true {
                    room.wait()
                    guard let index = handover.claim(below: subtrees.count) else {
                        room.signal()
                        return
                    }
                    handover.put(walked(subtrees[index]), at: index)
                }
            }
        }
        for index in subtrees.indices {
            use(handover.take(index))
            room.signal()
        }
        group.wait()
    }

    /// The walk of `subtree` on this thread.
    private func walked(_ subtree: DirectoryWalk.Subtree) -> Walked {
        var walk = DirectoryWalk(include: include, exclude: exclude, asksReadability: asksReadability)
        var items: [Item] = []
        walk.run(subtree) { items.append(take($0)) }
        return Walked(walk: walk, items: items)
    }

    /// The directories claimed by the threads, and the findings they put until this thread takes them.
    private final class Handover: Sendable {
        private let state = Mutex<(next: Int, ready: [Int: Walked])>((0, [:]))
        private let put = DispatchSemaphore(value: 0)

        /// The next directory to walk; nil when none is left.
        func claim(below count: Int) -> Int? {
            state.withLock { state in
                guard state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func put(_ walked: Walked, at index: Int) {
            state.withLock { $0.ready[index] = walked }
            put.signal()
        }

        /// The findings of directory `index`, waiting until they are put.
        func take(_ index: Int) -> Walked {
            while true {
                if let walked = state.withLock({ $0.ready.removeValue(forKey: index) }) { return walked }
                put.wait()
            }
        }
    }
}
