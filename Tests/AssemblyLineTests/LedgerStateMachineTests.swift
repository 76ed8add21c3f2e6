import AssemblyLine
import Testing

@Suite struct LedgerStateMachineTests {
    /// The legal moves of DESIGN.md §2, written out in full; every other pair is illegal.
    static let legalShardMoves: Set<[ShardState]> = [
        [.planned, .signed], [.planned, .failed],
        [.signed, .created], [.signed, .failed], [.signed, .planned],
        [.created, .uploaded], [.created, .executing], [.created, .completed], [.created, .failed], [.created, .planned],
        [.uploaded, .executing], [.uploaded, .completed], [.uploaded, .failed], [.uploaded, .planned],
        [.executing, .completed], [.executing, .failed], [.executing, .planned],
        [.completed, .downloaded], [.completed, .failed], [.completed, .planned],
        [.failed, .planned], [.failed, .executing], [.failed, .completed],
    ]

    @Test(arguments: ShardState.allCases, ShardState.allCases)
    func shardTransitionMatrix(from: ShardState, to: ShardState) {
        #expect(from.canTransition(to: to) == Self.legalShardMoves.contains([from, to]), "\(from) → \(to)")
    }

    @Test func theHappyPathIsLegalStepByStep() {
        let path: [ShardState] = [.planned, .signed, .created, .uploaded, .executing, .completed, .downloaded]
        for (from, to) in zip(path, path.dropFirst()) {
            #expect(from.canTransition(to: to))
        }
        #expect(ShardState.downloaded.successors.isEmpty)
        #expect(ShardState.downloaded.isDone)
        #expect(ShardState.allCases.filter(\.isDone) == [.downloaded])
    }

    @Test(arguments: [
        (ShardTransition.signed, ShardState.signed),
        (.created(assemblyURL: "http://127.0.0.1/assemblies/x", tusURL: nil), .created),
        (.uploaded, .uploaded), (.executing, .executing), (.completed(results: []), .completed),
        (.downloaded(done: [0], noResult: [1]), .downloaded),
        (.failed(FailureReason(code: "HTTP_503", message: "unavailable", isRetryable: true)), .failed),
        (.restarted, .planned), (.reopened(at: .completed), .completed), (.reopened(at: .executing), .executing),
    ])
    func transitionsNameTheirTarget(transition: ShardTransition, target: ShardState) {
        #expect(transition.target == target)
    }

    @Test(arguments: RunState.allCases, RunState.allCases)
    func runTransitionMatrix(from: RunState, to: RunState) {
        let legal = from == .running || ((to == .running || to == .canceled) && (from == .failed || from == .interrupted))
            || (from == .interrupted && to == .superseded)
        #expect(from.canTransition(to: to) == legal, "\(from) → \(to)")
    }

    @Test func illegalTransitionMessagesNameTheShardAndTheChoices() throws {
        let run = try RunID(parsing: "20261130T210501Z-3f9a2c")
        let error = LedgerError.illegalShardTransition(run, shard: 4, from: .planned, to: .completed)
        #expect(error.description
            == "run 20261130T210501Z-3f9a2c, shard 4: cannot go from planned to completed (expected one of: failed, signed)")
        let final = LedgerError.illegalShardTransition(run, shard: 0, from: .downloaded, to: .planned)
        #expect(final.description.hasSuffix("(expected one of: none, it is final)"))
    }
}
