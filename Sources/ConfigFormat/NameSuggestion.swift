/// The name someone most likely meant by a misspelt one: a manifest's unknown key, a command line's unknown subcommand or option.
package enum NameSuggestion {
    /// The closest of `names` to `given`, when it is close enough to be a typo: at most a third of `given`'s
    /// letters apart (at least one), a swap of two neighbours counting as one edit (`reprot` is `report`).
    package static func closest(to given: String, among names: [String]) -> String? {
        let distances = names.map { (name: $0, distance: distance(given, $0)) }
        guard let best = distances.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(1, given.count / 3) ? best.name : nil
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] {
                    current[j + 1] = min(current[j + 1], before[j - 1] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
