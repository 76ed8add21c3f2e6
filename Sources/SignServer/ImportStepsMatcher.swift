import ConfigFormat

/// Tells apart steps that are an allowed set plus one import step, and a Template's override of one import step,
/// and checks that step against the policy's `imports` (``ImportRule``).
///
/// No list of keys for each shard could be a fixed allowed set, so the import step is judged by its rule
/// instead of compared: it must be the only step the allowed set lacks, and a name the set's steps `use`
/// (so the rest of the workflow is exactly the one approved).
struct ImportStepsMatcher {
    let allowed: [JSONValue]
    let imports: [ImportRule]

    /// True when `steps` are an allowed set plus one import step that the set's steps `use`, and that step is allowed.
    ///
    /// - Throws: ``PolicyRefusal/importNotAllowed(step:_:)`` when they are of that shape but the import step is refused.
    func matchesSet(_ steps: [String: JSONValue]) throws(PolicyRefusal) -> Bool {
        for name in steps.keys.sorted() {
            guard let (robot, step) = Self.importStep(steps[name]!) else { continue }
            var rest = steps
            rest[name] = nil
            guard allowed.contains(.object(rest)), Self.uses(rest).contains(name) else { continue }
            try check(name, step, robot: robot)
            return true
        }
        return false
    }

    /// True when `steps`, sent with an allowed Template, are one import step, and that step is allowed.
    ///
    /// - Throws: ``PolicyRefusal/importNotAllowed(step:_:)`` when the one step is an import but is refused.
    func matchesOverride(_ steps: [String: JSONValue]) throws(PolicyRefusal) -> Bool {
        guard steps.count == 1, let (name, value) = steps.first, let (robot, step) = Self.importStep(value) else { return false }
        try check(name, step, robot: robot)
        return true
    }

    /// Allows `step` when a rule of its Robot does; else refuses with the first rule's reason.
    private func check(_ name: String, _ step: [String: JSONValue], robot: ImportRule.Robot) throws(PolicyRefusal) {
        let rules = imports.filter { $0.robot == robot }
        guard let first = rules.first else { throw .importNotAllowed(step: name, .robotNotAllowed(robot.rawValue)) }
        guard let refusal = first.refusal(of: step) else { return }
        if rules.dropFirst().contains(where: { $0.refusal(of: step) == nil }) { return }
        throw .importNotAllowed(step: name, refusal)
    }

    /// The import Robot a step names and the step's members, nil for any other step.
    private static func importStep(_ value: JSONValue) -> (ImportRule.Robot, [String: JSONValue])? {
        guard let step = value.objectValue, let robot = step["robot"]?.stringValue.flatMap(ImportRule.Robot.init(rawValue:)) else { return nil }
        return (robot, step)
    }

    /// The step names that `use` of `steps` names: a name, a list of names, or `{steps: [name or {name}]}`.
    private static func uses(_ steps: [String: JSONValue]) -> Set<String> {
        func names(_ value: JSONValue?) -> [String] {
            switch value {
            case let .string(name)?: [name]
            case let .array(items)?: items.flatMap { names($0.objectValue?["name"] ?? $0) }
            case let .object(members)?: names(members["steps"])
            default: []
            }
        }
        return Set(steps.values.flatMap { names($0.objectValue?["use"]) })
    }
}
