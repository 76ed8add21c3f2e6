package import ConfigFormat

/// Turns a list of URLs into the plan of a run: the rows the globs select, each with its identity, sorted and sharded.
///
/// A row is planned as a local file is (``PlannedFile``): its path is the URL (``RemoteInputPath``), its relative
/// path the row's output name, its size the row's (or its HEAD's, else 0) and its version stamp, where a file has
/// its modification time, the stamp of its ETag (else its Last-Modified) and its fields (``versionStamp(of:fields:)``).
/// A row that gives no identity is asked for one with one HEAD request, ``parallelProbes`` at a time. A row the reader skipped, or whose HEAD
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

    /// How many HEAD requests are in flight at once, and how many rows wait for one before they are sent: a long list
    /// without identity columns is asked in parallel, politely, in flat memory.
    package static let parallelProbes = 8
    static let probeWindow = 256

    /// Reads the list, asks `remote` for the identity of the rows that give none, and makes the plan.
    ///
    /// - Throws: ``URLListError`` when the list cannot be read; ``PlanError/noListedInput(list:)`` when no row is an input.
    package func plan(probingWith remote: any RemoteInputAccess) async throws -> PlanResult {
        try limits.validate()
        let reader = try URLListReader(path: list.file, displayPath: list.file, format: list.format, rule: rule)
        let probe = remote.headProbe(rule: rule)
        // The rows of each set of fields, by its canonical JSON: an Assembly carries one set.
        var groups: [String: Plan.FieldGroup] = [:]
        var warnings: [(line: Int, warning: PlanWarning)] = []
        var unknown: [URLListEntry] = []
        func add(_ entry: URLListEntry, _ identity: URLIdentity) {
            let file = PlannedFile(path: entry.url, relativePath: entry.outputName, size: identity.size ?? 0,
                                   modifiedNanoseconds: Self.versionStamp(of: identity, fields: entry.fields))
            groups[JSONValue.object(entry.fields).serialized, default: (fields: entry.fields, files: [])].files.append(file)
        }
        func probeUnknown() async {
            for (entry, answer) in await Self.identities(of: unknown, probe: probe) {
                switch answer {
                case let .success(identity): add(entry, identity)
                case let .failure(error): warnings.append((entry.line, warning(entry.line, "\(Self.printable(entry.url)): \(error)")))
                }
            }
            unknown.removeAll(keepingCapacity: true)
        }
        try await reader.read { row in
            switch row {
            case let .skipped(skipped):
                warnings.append((skipped.line, warning(skipped.line, "\(skipped.url): \(skipped.problem)")))
            case let .entry(entry):
                guard isSelected(entry.outputName) else { break }
                guard entry.identity.isEmpty else { add(entry, entry.identity); break }
                unknown.append(entry)
                if unknown.count == Self.probeWindow { await probeUnknown() }
            }
            return .next
        }
        await probeUnknown()
        guard !groups.isEmpty else { throw PlanError.noListedInput(list: list.file) }
        let ordered = groups.sorted { PathText.precedes($0.key, $1.key) }.map { _, group in
            var group = group
            Planner.sortInPlanOrder(&group.files)
            return group
        }
        return PlanResult(plan: Plan(shardingGroups: ordered, limits: limits), warnings: warnings.sorted { $0.line < $1.line }.map(\.warning))
    }

    /// The warning that the row on `line` is left out, and why.
    private func warning(_ line: Int, _ why: String) -> PlanWarning {
        PlanWarning(path: "\(list.file):\(line)", problem: "left out: \(why)")
    }

    /// Each of `entries` with its identity from one HEAD, or the probe's failure: ``parallelProbes`` at a time, in order.
    static func identities(of entries: [URLListEntry], probe: URLHeadProbe)
        async -> [(URLListEntry, Result<URLIdentity, URLHeadProbe.Failure>)] {
        await withTaskGroup(of: ProbeAnswer.self) { group in
            var answers = [Result<URLIdentity, URLHeadProbe.Failure>?](repeating: nil, count: entries.count)
            var next = 0
            func ask() {
                let (index, url) = (next, entries[next].url)
                group.addTask {
                    do throws(URLHeadProbe.Failure) {
                        return ProbeAnswer(index: index, answer: .success(try await probe.identity(of: url)))
                    } catch {
                        return ProbeAnswer(index: index, answer: .failure(error))
                    }
                }
                next += 1
            }
            while next < min(parallelProbes, entries.count) { ask() }
            while let probed = await group.next() {
                answers[probed.index] = probed.answer
                if next < entries.count { ask() }
            }
            return zip(entries, answers.compactMap { $0 }).map { ($0, $1) }
        }
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

/// One HEAD's answer for the entry at `index` of a list: a struct, not a tuple (a task group's tuple child result holding a
/// `Result` comes back mixed up in Swift 6.3.1 release builds; scripts/check-imports.py refuses one).
private struct ProbeAnswer: Sendable {
    var index: Int
    var answer: Result<URLIdentity, URLHeadProbe.Failure>
}
