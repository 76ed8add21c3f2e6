import AssemblyLine
package import ConfigFormat

extension FaultPlan {
    static let routeKeys = ["fail", "statuses", "drop", "cut", "slow", "delay", "truncate", "corrupt"]

    /// Reads a faults file (YAML or JSON, parsed by the caller).
    ///
    /// ```yaml
    /// seed: 42
    /// routes:
    ///   create: {fail: 0.1, statuses: [502, 503], drop: 0.05, cut: 0.05}
    ///   status: {slow: 0.2, delay: 1500ms}
    ///   download: {truncate: 0.1, corrupt: 0.1}
    /// assemblies: {fail: 0.25, error: INTERNAL_COMMAND_ERROR}
    /// machines: {cycle_after: 40}
    /// ```
    /// Shares are numbers from 0 to 1 whose sum per route is at most 1; `statuses` are 500 to
    /// 599; `truncate` and `corrupt` apply to `download` only, `cut` to `create` and `tus_patch` only. Route names: the raw values of ``Route``.
    /// - Throws: ``ConfigError`` with every issue, each naming `file:line:column` and the field.
    package static func decode(_ node: ConfigNode, file: String, environment: [String: String] = [:]) throws(ConfigError) -> FaultPlan {
        try ConfigSource(displayPath: file, absolutePath: file, environment: environment).decode { reader in
            var plan = FaultPlan(seed: 0)
            if let root = reader.table(node, field: "", keys: ["seed", "routes", "assemblies", "machines"]) {
                if let text = root.string("seed", required: true, expected: "a whole number from 0 to 2^64-1") {
                    if let seed = UInt64(text) { plan.seed = seed } else { root.report("seed", "expected a whole number from 0 to 2^64-1, found '\(text)'") }
                }
                if let routes = root.table("routes", keys: Route.allCases.map(\.rawValue)) {
                    for route in Route.allCases {
                        if let table = routes.table(route.rawValue, keys: routeKeys) {
                            plan.routes[route] = decodeRoute(table, route: route)
                        }
                    }
                }
                if let table = root.table("assemblies", keys: ["fail", "error"]) {
                    let code = table.string("error", expected: "an error code such as INTERNAL_COMMAND_ERROR")
                    if let fail = share(table, "fail") {
                        plan.execution = code.map { ExecutionFaults(fail: fail, error: $0) } ?? ExecutionFaults(fail: fail)
                    }
                }
                if let table = root.table("machines", keys: ["cycle_after"]) {
                    plan.machinesCycleAfter = table.int("cycle_after", in: 1...1_000_000_000, required: true)
                }
            }
            return plan
        }
    }

    private static func decodeRoute(_ table: ConfigTable, route: Route) -> RouteFaults {
        var faults = RouteFaults()
        faults.fail = share(table, "fail") ?? 0
        faults.drop = share(table, "drop") ?? 0
        faults.cut = share(table, "cut") ?? 0
        faults.slow = share(table, "slow") ?? 0
        faults.truncate = share(table, "truncate") ?? 0
        faults.corrupt = share(table, "corrupt") ?? 0
        if let delay = table.duration("delay", in: .milliseconds(1)...Duration.seconds(600)) { faults.delay = delay }
        if let member = table.members["statuses"] {
            let items: [ConfigNode]
            if case .sequence(let nodes) = member.value.content { items = nodes } else { items = [member.value] }
            let statuses = items.compactMap { node -> Int? in
                guard let text = table.reader.text(node, field: member.field, expected: "a status from 500 to 599") else { return nil }
                guard let status = Int(text), (500...599).contains(status) else {
                    table.reader.report(node, field: member.field, "expected a status from 500 to 599, found '\(text)'")
                    return nil
                }
                return status
            }
            if statuses.count == items.count, !statuses.isEmpty { faults.statuses = statuses }
        }
        if route != .download {
            for key in ["truncate", "corrupt"] where table.has(key) {
                table.report(key, "applies to the download route only")
            }
        }
        if route != .create && route != .tusPatch && table.has("cut") {
            table.report("cut", "applies to the create and tus_patch routes only")
        }
        let total = faults.fail + faults.drop + faults.cut + faults.slow + faults.truncate + faults.corrupt
        if total > 1 {
            table.reader.report(table.node, field: table.field, "the shares add up to \(total); expected at most 1")
        }
        return faults
    }

    /// A share from 0 to 1.
    private static func share(_ table: ConfigTable, _ key: String) -> Double? {
        guard let member = table.members[key],
              let text = table.reader.text(member.value, field: member.field, expected: "a share from 0 to 1") else { return nil }
        guard let value = Double(text), (0...1).contains(value) else {
            table.reader.report(member.value, field: member.field, "expected a share from 0 to 1, found '\(text)'")
            return nil
        }
        return value
    }
}
