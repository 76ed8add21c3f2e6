import Synchronization

/// The output paths that results of several inputs took in one run, by shard: what keeps two shards' zips named alike apart.
///
/// A result of one input has a path of its own (the plan checked every input's); a result of several
/// takes its name from the service, and each shard's Assembly may name its zip alike (`archive.zip`).
/// The first shard to claim a path keeps it for the run; another shard's result for it fails its files
/// alone (`OUTPUT_COLLISION`) and overwrites nothing. A resume starts from the paths the ledger holds.
package final class OutputClaims: Sendable {
    private let holders: Mutex<[PathKey: Int]>

    /// Claims held already (a resume: the run's downloaded results of several inputs, by shard).
    package init(_ held: [(path: String, shard: Int)] = []) {
        holders = Mutex(Dictionary(held.map { (PathKey($0.path), $0.shard) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Claims `path` for `shard`; returns the other shard that holds it, or nil when it is `shard`'s.
    package func claim(_ path: String, by shard: Int) -> Int? {
        holders.withLock { holders in
            if let holder = holders[PathKey(path)], holder != shard { return holder }
            holders[PathKey(path)] = shard
            return nil
        }
    }
}
