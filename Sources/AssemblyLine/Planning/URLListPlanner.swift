package import ConfigFormat

/// Turns a list of URLs into the plan of a run: the rows the globs select, each with its identity, sorted and sharded.
///
/// A row is planned as a local file is (``PlannedFile``): its path is the URL (``RemoteInputPath``), its relative
/// path the row's output name, its size the row's (or its HEAD's, else 0) and its version stamp, where a file has
/// its modification time, the stamp of its ETag (else its Last-Modified) and its fields (``versionStamp(of:fields:)``).
/// A row that gives no identity is asked for one with one HEAD request. A row the reader skipped, or whose HEAD
/// fails, is left out with a warning naming the list's line. Rows of other fields go to other shards: the plan holds
/// the rows of each set of fields (sorted by its canonical JSON) in plan order, cut into shards that carry those fields.
/// The list is read row by row; the plan holds what a plan of files holds.
package struct URLListPlanner: Sendable {
    package var list: URLListSettings
    /// Patterns over `/` and a row's output name; none selects every row.
    package var include: [GlobPattern]
    package var exclude: [GlobPattern]
    package var limits: ShardLimits
    /// Which URLs the list may name: the rule of the manifest's endpoint.
    package var rule: InputURLRule

    package init(list: URLListSettings, include: [GlobPattern], exclude: [GlobPattern], limits: ShardLimits, endpoint: Endpoint) {
        self.list = list
        self.include = include
        self.exclude = exclude
        self.limits = limits
        // The embedded service fetches on this machine, as any loopback endpoint does.
        let origin = if case let .url(url) = endpoint { url } else { "http://127.0.0.1" }
        rule = InputURLRule(endpoint: origin)
    }

    /// Reads the list, asks `remote` for the identity of the rows that give none, and makes the plan.
    ///
    /// - Throws: ``URLListError`` when the list cannot be read; ``PlanError/noListedInput(list:)`` when no row is an input.
    package func plan(probingWith remote: any RemoteInputAccess) async throws -> PlanResult {
        try limits.validate()
        let reader = try URLListReader(path: list.file, displayPath: list.file, format: list.format, rule: rule)
        let probe = remote.headProbe(rule: rule)
        // The rows of each set of fields, by its canonical JSON: an Assembly carries one set.
        var groups: [String: Plan.FieldGroup] = [:]
        var warnings: [PlanWarning] = []
        try await reader.read { row in
            switch row {
            case let .skipped(skipped):
                warnings.append(PlanWarning(path: "\(list.file):\(skipped.line)", problem: "left out: \(skipped.url): \(skipped.problem)"))
            case let .entry(entry):
                guard isSelected(entry.outputName) else { break }
                do throws(URLHeadProbe.Failure) {
                    let file = try await planned(entry, probe: probe)
                    groups[JSONValue.object(entry.fields).serialized, default: (fields: entry.fields, files: [])].files.append(file)
                } catch {
                    warnings.append(PlanWarning(path: "\(list.file):\(entry.line)", problem: "left out: \(Self.printable(entry.url)): \(error)"))
                }
            }
            return .next
        }
        guard !groups.isEmpty else { throw PlanError.noListedInput(list: list.file) }
        let ordered = groups.sorted { PathText.precedes($0.key, $1.key) }.map { _, group in
            var group = group
            Planner.sortInPlanOrder(&group.files)
            return group
        }
        return PlanResult(plan: Plan(shardingGroups: ordered, limits: limits), warnings: warnings)
    }

    /// The planned input of `entry`, its identity asked with one HEAD when the row gives none.
    private func planned(_ entry: URLListEntry, probe: URLHeadProbe) async throws(URLHeadProbe.Failure) -> PlannedFile {
        let identity = entry.identity.isEmpty ? try await probe.identity(of: entry.url) : entry.identity
        return PlannedFile(path: entry.url, relativePath: entry.outputName, size: identity.size ?? 0,
                           modifiedNanoseconds: Self.versionStamp(of: identity, fields: entry.fields))
    }

    /// The stamp of a row's version: of canonical JSON of its ETag (else its Last-Modified) and its fields, so that
    /// a new ETag or an edited field makes the row again.
    package static func versionStamp(of identity: URLIdentity, fields: [String: JSONValue]) -> Int64 {
        var members: [String: JSONValue] = ["fields": .object(fields)]
        if let etag = identity.etag {
            members["etag"] = .string(etag)
        } else if let modified = identity.lastModified {
            members["last_modified"] = .string(modified.iso8601Text)
        }
        return RemoteInputPath.versionStamp(of: JSONValue.object(members).serialized)
    }

    /// True when the include patterns (or none) take `/name` and no exclude pattern takes it or a folder above it.
    private func isSelected(_ name: String) -> Bool {
        let path = "/" + name
        return (include.isEmpty || include.contains(where: { $0.matches(path) })) && !exclude.matchesPathOrFolder(path)
    }

    /// The URL without credentials, escaped and bounded for a warning.
    private static func printable(_ url: String) -> String {
        RemoteText.escaped(URLText.withoutCredentials(url), limit: RemoteText.nameLimit)
    }
}
