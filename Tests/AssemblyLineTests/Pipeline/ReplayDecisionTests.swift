import AssemblyLine
import ConfigFormat
import Foundation
import Testing

/// When a shard tried again replays its failed Assembly instead of uploading its files again (``ReplayRule``), and how a
/// replay goes in the shard's machine: its intent, its params, its answer, and the fallback when the service refuses it.
@Suite struct ReplayDecisionTests {
    typealias Fixture = ShardStateMachineTests
    typealias Decision = ShardStateMachine.Decision

    static let template = ReplayRule(.template(id: "thumbs", fields: [:]))
    static let steps = ReplayRule(.steps(.object(["thumb": .object(["robot": .string("/image/resize")])]), fields: [:]))
    static let broken = FailureReason(code: "INVALID_STEP_PARAMETER", message: "width is not a number", isRetryable: false)
    static let replayID = AssemblyID("fedcba9876543210fedcba9876543210")!
    static let intentID = AssemblyID("11111111111111111111111111111111")!
    static let replayURL = "https://api2-m1.transloadit.com/assemblies/\(replayID)"
    static let replaying = Fixture.status(#"{"ok":"ASSEMBLY_REPLAYING","assembly_id":"\#(replayID)","assembly_ssl_url":"\#(replayURL)","#
                                          + #""parent_id":"\#(Fixture.id)"}"#)
    /// The failed Assembly's status: it holds both pending files.
    static let parentStatus = Fixture.status(#"{"ok":null,"error":"INVALID_STEP_PARAMETER","assembly_id":"\#(Fixture.id)","#
                                             + #""uploads":[{"id":"u4","field":"file_4"},{"id":"u5","field":"file_5"}]}"#)
    static let cannotBeReplayed = TransloaditError(code: .assemblyCannotBeReplayed, message: "its uploads are gone", httpStatus: 400, isRetryable: false)

    /// The shard's last attempt: failed `ago` seconds after its Assembly was created, while it executed or not.
    static func failedAttempt(executing: Bool = true, createdAgo: TimeInterval = 20, created: Bool = true) -> AttemptRecord {
        var attempt = Fixture.attempt(.failed, created: created, failure: broken)
        attempt.createdAt = created ? Fixture.now.addingTimeInterval(-createdAgo) : nil
        attempt.failedExecuting = executing
        return attempt
    }

    static func settings(_ rule: ReplayRule) -> ShardStateMachine.Settings {
        var settings = Fixture.settings()
        settings.replay = rule
        return settings
    }

    /// The decision for a failed shard whose last attempt is `last`, under `rule`.
    static func reopening(_ last: AttemptRecord, _ rule: ReplayRule = template) -> Decision {
        var machine = ShardStateMachine(settings: settings(rule), seed: 7)
        _ = machine.start(from: .failed)
        return machine.handle(.lastAttempt(last), at: Fixture.now)
    }

    static let restarting: [ShardStateMachine.Command] = [.transition(.restarted, .restarted, .none)]

    // MARK: - The rule

    @Test func aTemplateBackedAssemblyThatFailedWhileExecutingIsReplayedWithin24Hours() {
        let failed = FailedAssembly(id: Fixture.id, createdAt: Fixture.now.addingTimeInterval(-23 * 3600))
        #expect(Self.template.parent(replaying: failed, now: Fixture.now) == Fixture.id)
        #expect(Self.template.parent(replaying: failed, now: Fixture.now.addingTimeInterval(3600)) == nil, "24 hours after its creation")
        #expect(Self.steps.parent(replaying: failed, now: Fixture.now) == nil, "steps are not replayed")
        #expect(ReplayRule(.steps(.object([:]), fields: ["size": .integer(1)])).templateBacked == false)
        #expect(Self.template.parent(replaying: nil, now: Fixture.now) == nil)
    }

    @Test func onlyAnAttemptWhoseAssemblyFailedAfterItsUploadsNamesAFailedAssembly() {
        #expect(Self.failedAttempt().failedAssembly == FailedAssembly(id: Fixture.id, createdAt: Fixture.now.addingTimeInterval(-20)))
        #expect(Self.failedAttempt(executing: false).failedAssembly == nil, "a failed upload, a refused creation, a transport error")
        #expect(Self.failedAttempt(created: false).failedAssembly == nil)
        var superseded = Self.failedAttempt()
        superseded.outcome = .superseded
        #expect(superseded.failedAssembly == nil)
    }

    // MARK: - A resume of a failed shard

    @Test func aResumeReplaysTheFailedAssemblyOfATemplate() {
        #expect(Self.reopening(Self.failedAttempt()) == Decision(Self.restarting, .request(.recordReplay(of: Fixture.id))))
    }

    @Test(arguments: [
        ("a failed upload", failedAttempt(executing: false), template),
        ("a steps recipe", failedAttempt(), steps),
        ("after 24 hours", failedAttempt(createdAgo: 24 * 3600 + 1), template),
    ])
    func aResumeCreatesAnew(_ why: String, last: AttemptRecord, rule: ReplayRule) {
        #expect(Self.reopening(last, rule) == Decision(Self.restarting, .request(.recordAttempt)), "\(why)")
    }

    // MARK: - The replay

    /// A machine that resumed the failed shard and recorded its replay's intent.
    static func recordedReplay() -> (ShardStateMachine, Decision) {
        var machine = ShardStateMachine(settings: settings(template), seed: 7)
        _ = machine.start(from: .failed)
        _ = machine.handle(.lastAttempt(failedAttempt()), at: Fixture.now)
        let decision = machine.handle(.attemptRecorded(intentID), at: Fixture.now)
        return (machine, decision)
    }

    /// The replay's attempt as the ledger gives it: the intent's ID, its parent, nothing created yet.
    static let replayAttempt: AttemptRecord = {
        var attempt = Fixture.attempt(number: 2, created: false)
        attempt.assemblyID = intentID
        attempt.parentAssemblyID = Fixture.id
        return attempt
    }()

    /// A machine whose replay request is sent.
    static func replaySent() -> ShardStateMachine {
        var (machine, _) = recordedReplay()
        _ = machine.handle(.signed(Fixture.params), at: Fixture.now)
        _ = machine.handle(.attempt(replayAttempt, files: Fixture.pending), at: Fixture.now)
        _ = machine.handle(.lookedUp(parentStatus), at: Fixture.now)
        return machine
    }

    @Test func aReplaySignsReplayParamsAndSendsNoFiles() {
        var (machine, recorded) = Self.recordedReplay()
        #expect(recorded == Decision([.report(.started, .replaying(parent: Fixture.id)), .checkpoint(.afterIntent)], .request(.signReplay)))
        _ = machine.handle(.signed(Fixture.params), at: Fixture.now)
        #expect(machine.handle(.attempt(Self.replayAttempt, files: Fixture.pending), at: Fixture.now) == Decision(.request(.lookUp(url: Fixture.url))),
                "the failed Assembly's status first: which files it holds")
        #expect(machine.handle(.lookedUp(Self.parentStatus), at: Fixture.now)
            == Decision(.request(.replay(Fixture.id, Fixture.params, files: Fixture.pending))))
    }

    /// A file that failed alone before the failed Assembly was made is pending again on a resume: that Assembly never had it.
    @Test(arguments: [
        (Fixture.status(#"{"ok":null,"error":"X","assembly_id":"\#(Fixture.id)","uploads":[{"id":"u5","field":"file_5"}]}"#),
         FailureReason(code: .replayLacksFiles, message: "Assembly \(Fixture.id) does not hold a.jpg", isRetryable: true)),
        (nil, FailureReason(code: .assemblyNotFound, message: "the service no longer knows Assembly \(Fixture.id)", isRetryable: true)),
    ] as [(AssemblyStatus?, FailureReason)])
    func anAssemblyThatDoesNotHoldEveryPendingFileIsNotReplayed(parent: AssemblyStatus?, reason: FailureReason) {
        var (machine, _) = Self.recordedReplay()
        _ = machine.handle(.signed(Fixture.params), at: Fixture.now)
        _ = machine.handle(.attempt(Self.replayAttempt, files: Fixture.pending), at: Fixture.now)
        #expect(machine.handle(.lookedUp(parent), at: Fixture.now)
            == Decision([.noteRetry(.replayRefused(parent: Fixture.id, reason))] + Self.restarting, .request(.recordAttempt)))
    }

    @Test func theReplaysAnswerRecordsItsOwnIDWithNoBytesSentAndIsPolled() {
        var machine = Self.replaySent()
        let decision = machine.handle(.createAnswered(.success(Self.replaying)), at: Fixture.now)
        #expect(decision.commands.prefix(3) == [
            .checkpoint(.afterCreateAnswer),
            .transition(.created(assemblyURL: Self.replayURL, tusURL: nil, bytesSent: 0, replayID: Self.replayID), .created,
                        .assembly(Self.replayID.rawValue)),
            .transition(.uploaded, .uploaded, .none),
        ])
    }

    @Test func aResumeAfterACrashSignsTheReplayAgainWithoutALookUp() {
        var machine = ShardStateMachine(settings: Self.settings(Self.template), seed: 7)
        _ = machine.start(from: .signed)
        #expect(machine.handle(.attempt(Self.replayAttempt, files: Fixture.pending), at: Fixture.now) == Decision(.request(.signReplay)))
    }

    @Test(arguments: [
        cannotBeReplayed,
        TransloaditError(code: .assemblyNotFound, message: "gone", httpStatus: 404, isRetryable: false),
        TransloaditError(code: .assemblyIDMismatch, message: "the answer to a replay names no new Assembly ID", isRetryable: false),
    ])
    func aRefusedReplayFallsBackToACreation(_ refusal: TransloaditError) {
        var machine = Self.replaySent()
        #expect(machine.handle(.createAnswered(.failure(refusal)), at: Fixture.now)
            == Decision([.noteRetry(.replayRefused(parent: Fixture.id, refusal.failureReason))] + Self.restarting, .request(.recordAttempt)))
    }

    @Test func aReplayTheServiceCannotAnswerNowIsTriedAgainAsAReplay() {
        var machine = Self.replaySent()
        _ = machine.handle(.createAnswered(.failure(Fixture.unavailable)), at: Fixture.now)
        #expect(machine.handle(.waited, at: Fixture.now) == Decision(.request(.loadAttempt)))
        #expect(machine.handle(.attempt(Self.replayAttempt, files: Fixture.pending), at: Fixture.now) == Decision(.request(.signReplay)))
    }

    // MARK: - A retry within the run

    /// A machine polling the executing Assembly created 20 s ago, that just got `status`.
    static func polled(_ status: AssemblyStatus, rule: ReplayRule = template) -> (ShardStateMachine, Decision) {
        var machine = ShardStateMachine(settings: settings(rule), seed: 7)
        _ = machine.start(from: .executing)
        _ = machine.handle(.attempt(Fixture.attempt(), files: Fixture.files), at: Fixture.now)
        _ = machine.handle(.paced, at: Fixture.now)
        let decision = machine.handle(.statusAnswered(status), at: Fixture.now)
        return (machine, decision)
    }

    @Test func aCrashedAssemblyOfATemplateIsReplayedWithinTheRun() {
        var (machine, _) = Self.polled(Fixture.crashed)
        #expect(machine.handle(.waited, at: Fixture.now) == Decision(Self.restarting, .request(.recordReplay(of: Fixture.id))))
        var (steps, _) = Self.polled(Fixture.crashed, rule: Self.steps)
        #expect(steps.handle(.waited, at: Fixture.now) == Decision(Self.restarting, .request(.recordAttempt)))
    }

    @Test func aShardWhoseAssemblyFailedWhileExecutingRecordsThatItDid() {
        let failing = Fixture.status(#"{"ok":null,"error":"INVALID_STEP_PARAMETER","message":"width is not a number","assembly_id":"\#(Fixture.id)"}"#)
        let (_, ended) = Self.polled(failing)
        #expect(ended.commands.last == .transition(.failed(Self.broken, executing: true), .failed, .failed(Self.broken)))
        let (_, aborted) = Self.polled(Fixture.aborted)
        #expect(aborted.commands.contains { if case .transition(.failed(_, executing: true), _, _) = $0 { true } else { false } } == false,
                "an aborted request never stored its uploads")
    }
}
