import ConfigFormat

/// Compares params' `steps` with a policy's allowed sets: equal to one exactly, or the first difference from the closest.
struct StepsMatcher {
    let allowed: [JSONValue]

    /// Nil when `steps` equals an allowed set; otherwise what differs from the closest one.
    func difference(_ steps: JSONValue) -> String? {
        if allowed.contains(steps) { return nil }
        guard let closest = closest(to: steps) else { return "this policy allows no steps" }
        return Self.firstDifference(steps, closest, path: "") ?? "they differ from every allowed set"
    }

    /// The allowed set with the same Step names, else the one sharing most names, else the first.
    private func closest(to steps: JSONValue) -> JSONValue? {
        let names = Set(steps.objectValue?.keys.map { $0 } ?? [])
        return allowed.max { lhs, rhs in
            Self.score(names, lhs) < Self.score(names, rhs)
        }
    }

    private static func score(_ names: Set<String>, _ candidate: JSONValue) -> Int {
        let candidateNames = Set(candidate.objectValue?.keys.map { $0 } ?? [])
        return names == candidateNames ? Int.max : names.intersection(candidateNames).count
    }

    /// The first difference between two values, by path (`resize.width`), or nil when they are equal.
    static func firstDifference(_ given: JSONValue, _ allowed: JSONValue, path: String) -> String? {
        if given == allowed { return nil }
        let label = path.isEmpty ? "steps" : path
        guard case let .object(givenMembers) = given, case let .object(allowedMembers) = allowed else {
            return "\(label) is \(excerpt(given)), allowed \(excerpt(allowed))"
        }
        let kind = path.isEmpty ? "step" : path.contains(".") ? "key" : "option"
        for name in givenMembers.keys.sorted() where allowedMembers[name] == nil {
            return "\(kind) \(PolicyRefusal.quote(join(path, name))) is not in the allowed set"
        }
        for name in allowedMembers.keys.sorted() where givenMembers[name] == nil {
            return "\(kind) \(PolicyRefusal.quote(join(path, name))) of the allowed set is missing"
        }
        for name in givenMembers.keys.sorted() {
            if let difference = firstDifference(givenMembers[name]!, allowedMembers[name]!, path: join(path, name)) {
                return difference
            }
        }
        return nil
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    /// A value's JSON, shortened and on one line.
    private static func excerpt(_ value: JSONValue) -> String {
        let text = value.serialized
        return text.count > PolicyRefusal.quoteLimit ? String(text.prefix(PolicyRefusal.quoteLimit)) + "…" : text
    }
}
