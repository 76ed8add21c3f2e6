/// Turns a bucket's listing into the plan of a run: the keys under its prefix that the globs select, sorted and sharded.
///
/// A key is planned as a local file is (``PlannedFile``): its relative path is the key below the
/// prefix, which outputs mirror; its path is `s3://<bucket>/<key>` (``RemoteInputPath``); its size is
/// the listing's and its version stamp (where a file has its modification time) the ETag's. The
/// listing is read page by page and holds one page; the plan holds what a plan of files holds. A key
/// the listing itself refused, a folder marker (a key ending in `/`) or a key with an empty segment
/// (`a//b`, which no output path can mirror) is left out with a warning. Excludes apply to a key and
/// to every folder above it, as they do to a walk.
package struct BucketPlanner: Sendable {
    package var bucket: BucketInputSettings
    /// Patterns over `/` and the key (``BucketInputSettings/root``).
    package var include: [GlobPattern]
    package var exclude: [GlobPattern]
    package var limits: ShardLimits

    package init(bucket: BucketInputSettings, include: [GlobPattern], exclude: [GlobPattern], limits: ShardLimits) {
        self.bucket = bucket
        self.include = include
        self.exclude = exclude
        self.limits = limits
    }

    /// Lists the bucket with `lister` and makes the plan.
    ///
    /// - Throws: ``S3ListingError`` when the listing fails; ``PlanError/noMatch(patterns:)`` when no key is selected.
    package func plan(listingWith lister: S3BucketLister) async throws -> PlanResult {
        guard !include.isEmpty else { throw PlanError.noIncludePatterns }
        try limits.validate()
        var files: [PlannedFile] = []
        var warnings: [PlanWarning] = []
        // The keys of one folder come together: they share one string of it, as the files of a directory walked do.
        var folder = ""
        try await lister.list(prefix: bucket.prefix) { page in
            for skipped in page.skipped {
                warnings.append(PlanWarning(path: "s3://\(bucket.address.bucket)/\(skipped.key)", problem: "left out: \(skipped.reason)"))
            }
            for object in page.objects {
                if let file = planned(object, folder: &folder, warnings: &warnings) { files.append(file) }
            }
            return .next
        }
        guard !files.isEmpty else { throw PlanError.noMatch(patterns: include.map(\.description)) }
        Planner.sortInPlanOrder(&files)
        return PlanResult(plan: Plan(sharding: files, limits: limits), warnings: warnings)
    }

    /// The planned input of `object`, or nil when the globs leave it out or it cannot be one (a warning then).
    /// `folder` is the ledger path's folder of the key planned before, whose string the next key of that folder reuses.
    private func planned(_ object: S3Object, folder: inout String, warnings: inout [PlanWarning]) -> PlannedFile? {
        guard !object.key.hasSuffix("/") else { return nil }
        let path = "/" + object.key
        guard include.contains(where: { $0.matches(path) }), !exclude.matchesPathOrFolder(path) else { return nil }
        let remote = RemoteInputPath.of(key: object.key, bucket: bucket.address.bucket)
        guard !object.key.contains("//"), let relative = PathText.relative(path, to: bucket.root) else {
            warnings.append(PlanWarning(path: remote, problem: "left out: an empty path segment, which no output path can mirror"))
            return nil
        }
        let (directory, name) = PathText.directoryAndName(of: remote)
        if !PathText.same(directory, folder) { folder = directory }
        return PlannedFile(relativePath: relative, realDirectory: folder, realName: name, size: object.size,
                           modifiedNanoseconds: RemoteInputPath.versionStamp(of: object.etag))
    }
}
