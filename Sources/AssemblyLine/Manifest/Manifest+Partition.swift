import Foundation

extension Manifest {
    /// What `state_dir` and `output.dir` may name to keep each partition's apart: replaced by the partition's index.
    package static let partitionPlaceholder = "{partition}"

    /// The manifest fields that name ``partitionPlaceholder``, by their manifest key.
    package var fieldsNamingPartition: [String] {
        [("state_dir", stateDir), ("output.dir", output.dir)].filter { $0.1.contains(Self.partitionPlaceholder) }.map(\.0)
    }

    /// Whether `state_dir` names ``partitionPlaceholder``: each part of a batch keeps a ledger of its own.
    package var namesPartitionStateDir: Bool { stateDir.contains(Self.partitionPlaceholder) }

    /// `state_dir` with ``partitionPlaceholder`` as `*`: a glob of every part's state directory (`state_dir` itself when
    /// it names none).
    package var stateDirOfEveryPart: String { stateDir.replacingOccurrences(of: Self.partitionPlaceholder, with: "*") }

    /// The directory every part's outputs lie under: `output.dir`, or, when it names ``partitionPlaceholder``, its
    /// directories above the first name that does.
    package var outputDirOfAllParts: String {
        guard let placeholder = output.dir.range(of: Self.partitionPlaceholder) else { return output.dir }
        let before = output.dir[..<placeholder.lowerBound]
        guard let slash = before.lastIndex(of: "/"), slash != before.startIndex else { return "/" }
        return String(before[..<slash])
    }

    /// The manifest as one partition runs it: it plans only the partition's files (cut into shards of their
    /// own), with `{partition}` in `state_dir` and `output.dir` replaced by
    /// the partition's index, and, unless `limits.partition_share` is `whole`, its share of the account's
    /// budget: 1/N of `limits.creations_per_minute` and of `concurrency.assemblies` (at least 1 each),
    /// since Transloadit counts both per account, not per host.
    package func partitioned(_ partition: Partition) -> Manifest {
        var manifest = self
        manifest.partition = partition
        let index = String(partition.index)
        manifest.stateDir = stateDir.replacingOccurrences(of: Self.partitionPlaceholder, with: index)
        manifest.jobOutputDir = jobOutputDir ?? output.dir
        manifest.output.dir = output.dir.replacingOccurrences(of: Self.partitionPlaceholder, with: index)
        if limits.partitionShare == .split {
            manifest.limits.creationsPerMinute = max(1, limits.creationsPerMinute / partition.count)
            manifest.concurrency.assemblies = max(1, concurrency.assemblies / partition.count)
        }
        return manifest
    }
}
