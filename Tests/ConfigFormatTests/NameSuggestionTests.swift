import ConfigFormat
import Testing

/// The name most likely meant: one suggestion for a manifest's keys and a command line's subcommands and options.
@Suite struct NameSuggestionTests {
    static let subcommands = ["validate", "plan", "run", "resume", "runs", "report", "check", "cancel", "prune", "completion", "manual", "help"]

    @Test(arguments: [("reprot", "report"), ("rn", "run"), ("valdiate", "validate"), ("chekc", "check"), ("mannual", "manual"),
                      ("prnue", "prune")])
    func aTypoOrASwapOfNeighboursFindsTheName(typed: String, meant: String) {
        #expect(NameSuggestion.closest(to: typed, among: Self.subcommands) == meant)
    }

    @Test(arguments: ["frobnicate", "x", "deploy", ""])
    func aWordFarFromEveryNameFindsNone(typed: String) {
        #expect(NameSuggestion.closest(to: typed, among: Self.subcommands) == nil)
    }
}
