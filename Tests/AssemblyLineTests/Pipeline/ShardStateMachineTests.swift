import AssemblyLine
import ConfigFormat
import Foundation
import Testing

/// The shard state machine without a process, a socket or a ledger: each row drives it to a state
/// with a path of events, sends one more, and compares the actions.
@Suite struct ShardStateMachineTests {
    typealias Event = ShardStateMachine.Event
    typealias Action = ShardStateMachine.Action

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let id = AssemblyID("0123456789abcdef0123456789abcdef")!
    static let endpoint = "https://api2.transloadit.com"
    static let url = "\(endpoint)/assemblies/\(id)"
    static let machineURL = "https://api2-m1.transloadit.com/assemblies/\(id)"
    static let tusURL = "https://api2-m1.transloadit.com/resumable/files/"
    static let params = SignedParams(params: #"{"auth":{}}"#, signature: "sha384:" + String(repeating: "0", count: 96))

    static func settings(tus: Bool = false, attempts: Int = 3) -> ShardStateMachine.Settings {
        ShardStateMachine.Settings(
            endpoint: endpoint, tus: tus, retry: RetryPolicy(attempts: attempts, baseDelay: .seconds(1), maxDelay: .seconds(2)),
            poll: PollSettings(interval: .seconds(1), maxInterval: .seconds(10), timeout: .seconds(60)),
            resultLifetime: .seconds(86_400))
    }

    static func attempt(_ outcome: AttemptOutcome = .open, created: Bool = true, tus: Bool = false, completedAgo: TimeInterval? = nil,
                        failure: FailureReason? = nil) -> AttemptRecord {
        AttemptRecord(
            shardIndex: 0, number: 1, assemblyID: id, outcome: outcome, startedAt: now.addingTimeInterval(-30),
            assemblyURL: created ? machineURL : nil, tusURL: created && tus ? tusURL : nil,
            createdAt: created ? now.addingTimeInterval(-20) : nil,
            completedAt: completedAgo.map { now.addingTimeInterval(-$0) }, failure: failure)
    }

    static func status(_ json: String) -> AssemblyStatus {
        AssemblyStatus.decode(Array(json.utf8))!
    }

    static let executing = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)"}"#)
    static let uploading = status(#"{"ok":"ASSEMBLY_UPLOADING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","tus_url":"\#(tusURL)"}"#)
    static let completed = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"r":[{"id":"x","name":"a.jpg","ssl_url":"https://tmp/a.jpg","size":3,"field":"file_0"}]}}"#)
    static let canceled = status(#"{"ok":"ASSEMBLY_CANCELED","assembly_id":"\#(id)"}"#)
    static let corrupt = status(#"{"ok":null,"error":"IMAGE_RESIZE_ERROR","message":"bad","original_id":"u1","uploads":[{"id":"u1","field":"file_4"}]}"#)
    static let aborted = status(#"{"ok":null,"error":"REQUEST_ABORTED","message":"cut off"}"#)
    static let crashed = status(#"{"error":"ASSEMBLY_CRASHED","message":"the machine broke","assembly_id":"\#(id)"}"#)
    static let saysRetryable = status(#"{"error":"IMAGE_RESIZE_ERROR","message":"try later","retryable":true,"original_id":"u1","uploads":[{"id":"u1","field":"file_4"}]}"#)

    static func result(temporary: Bool) -> ResultRecord {
        ResultRecord(id: temporary ? 1 : 2, shardIndex: 0, attempt: 1, result: NewResult(
            fileIndex: 0, step: "thumb", remoteID: nil, name: "a.jpg", url: "https://tmp/a.jpg", size: 3, md5: nil, mime: nil,
            width: nil, height: nil, isTemporary: temporary, delivery: .download(to: "/out/a.jpg")), downloadedAt: nil)
    }

    static let temporary = result(temporary: true)
    static let exported = result(temporary: false)

    static let machine2URL = "https://api2-m2.transloadit.com/assemblies/\(id)"
    static let executingOnM2 = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machine2URL)"}"#)
    static let uploadingOnM2 = status(#"{"ok":"ASSEMBLY_UPLOADING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machine2URL)","tus_url":"https://api2-m2.transloadit.com/resumable/files/"}"#)
    static let connectRefused = TransloaditError(code: .transportConnect, message: "refused", isRetryable: true)
    static let askingTheAPIHost: [Action] = [
        .forgetStatusPacing(url: machineURL), .report(.retrying, detail: "\(machineURL) does not answer; asking \(url)"), .pollStatus(url: url),
    ]

    static let rateLimited = TransloaditError(code: .rateLimitReached, message: "slow down", httpStatus: 413, retryIn: .seconds(7), isRetryable: true)
    static let reused = TransloaditError(code: .signatureReused, message: "seen before", httpStatus: 403, isRetryable: false)
    static let params2 = SignedParams(params: #"{"auth":{"nonce":"2"}}"#, signature: "sha384:" + String(repeating: "1", count: 96))
    static let idTaken = TransloaditError(code: .assemblyIDTaken, message: "taken", httpStatus: 409, isRetryable: false)
    static let unavailable = TransloaditError(code: .http(503), message: "down", httpStatus: 503, retryIn: .seconds(30), isRetryable: true)
    static let invalid = TransloaditError(code: "INVALID_SIGNATURE", message: "no", httpStatus: 401, isRetryable: false)
    static let changed = ShardFailure(TransloaditError(code: .inputChanged, message: "a.jpg changed", isRetryable: false), uploading: 4)
    static let refused = ShardFailure(SigningError.denied(reason: "no"))

    /// One row: a start, a path to the state under test, the event, and the actions it must give.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var start: ShardState
        var tus = false
        var attempts = 3
        var path: [Event] = []
        var event: Event
        var at: Date = ShardStateMachineTests.now
        var expected: [Action]
        var testDescription: String { name }
    }

    static func failed(_ code: FailureCode, _ message: String, retryable: Bool) -> Action {
        .transition(.failed(FailureReason(code: code, message: message, isRetryable: retryable)), .failed,
                    detail: "\(code): \(message)")
    }

    /// The report and wait of the first retry without a hint from the service, at the jitter seed 7 gives.
    static func firstRetry(of reason: String) -> [Action] {
        let wait = settings().retry.delay(after: 1, hint: nil, jitter: ShardStateMachine.jitter(seed: 7, try: 1))
        return [.report(.retrying, detail: "\(reason) (try 2 of 3 in \(ConfigUnits.formatDuration(wait)))"), .wait(wait)]
    }

    static let unavailableRetry: [Action] = [
        .report(.retrying, detail: "HTTP_503: down (try 2 of 3 in 30s)"), .wait(.seconds(30)),
    ]

    static let rows: [Row] = [
        // Where each ledger state starts.
        Row(name: "planned writes an intent", start: .planned, event: .attemptRecorded(id),
            expected: [.report(.started, detail: "Assembly \(id)"), .checkpoint(.afterIntent), .sign]),
        Row(name: "a new attempt's params are signed", start: .planned, path: [.attemptRecorded(id)], event: .signed(params),
            expected: [.transition(.signed, .signed, detail: ""), .checkpoint(.afterSigned), .loadAttempt]),
        Row(name: "a refused signature fails the shard", start: .planned, path: [.attemptRecorded(id)], event: .failed(refused),
            expected: [failed(.signingRefused, "signing: the signing service denied the params: no", retryable: false), .finish(.failed)]),
        Row(name: "fresh params create at once", start: .planned, path: [.attemptRecorded(id), .signed(params)], event: .attempt(attempt(created: false)),
            expected: [.create(id, params)]),
        Row(name: "resumed at signed, the Assembly is looked up first", start: .signed, event: .attempt(attempt(created: false)),
            expected: [.lookUp(url: url)]),
        Row(name: "an attempt missing from the ledger", start: .signed, attempts: 1, event: .attempt(nil),
            expected: [failed(.noAttempt, "the ledger has no attempt for the shard", retryable: true), .finish(.failed)]),
        Row(name: "resumed at signed, the Assembly exists", start: .signed, path: [.attempt(attempt(created: false))], event: .lookedUp(executing),
            expected: [.recordCreated(executing, fallbackURL: url), .transition(.uploaded, .uploaded, detail: ""), .checkpoint(.afterCreated),
                       .transition(.executing, .executing, detail: ""), .loadAttempt]),
        Row(name: "resumed at signed, no Assembly: sign again", start: .signed, path: [.attempt(attempt(created: false))], event: .lookedUp(nil),
            expected: [.sign]),
        Row(name: "signed again, then created", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil)], event: .signed(params),
            expected: [.create(id, params)]),

        // Creation answers.
        Row(name: "the service accepts a running Assembly", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.success(executing)),
            expected: [.checkpoint(.afterCreateAnswer), .recordCreated(executing, fallbackURL: url), .transition(.uploaded, .uploaded, detail: ""),
                       .checkpoint(.afterCreated), .transition(.executing, .executing, detail: ""), .loadAttempt]),
        Row(name: "the creation answer is already completed", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.success(completed)),
            expected: [.checkpoint(.afterCreateAnswer), .recordCreated(completed, fallbackURL: url), .transition(.uploaded, .uploaded, detail: ""),
                       .checkpoint(.afterCreated), .recordCompletion(completed), .checkpoint(.afterCompleted), .loadDownloads]),
        Row(name: "our ID taken: look it up", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.failure(idTaken)), expected: [.lookUp(url: url)]),
        Row(name: "our ID taken and the Assembly exists", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .createAnswered(.failure(idTaken))], event: .lookedUp(executing),
            expected: [.recordCreated(executing, fallbackURL: url), .transition(.uploaded, .uploaded, detail: ""), .checkpoint(.afterCreated),
                       .transition(.executing, .executing, detail: ""), .loadAttempt]),
        Row(name: "taken by someone else", start: .signed, attempts: 1,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .createAnswered(.failure(idTaken))], event: .lookedUp(nil),
            expected: [failed(.assemblyIDTaken, "taken", retryable: true), .finish(.failed)]),
        Row(name: "rate limited: back off and sign afresh", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.failure(rateLimited)),
            expected: [.backOffCreations(.seconds(7)), .report(.retrying, detail: "RATE_LIMIT_REACHED: waiting 7s"), .sign]),
        Row(name: "signed afresh after the rate limit, created again", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .createAnswered(.failure(rateLimited))],
            event: .signed(params2), expected: [.create(id, params2)]),
        Row(name: "reused params: look our ID up", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.failure(reused)), expected: [.lookUp(url: url)]),
        Row(name: "reused params, no Assembly: a retry signs afresh in the same attempt", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .createAnswered(.failure(reused))], event: .lookedUp(nil),
            expected: firstRetry(of: "SIGNATURE_REUSE_DETECTED: seen before")),
        Row(name: "an answer for another Assembly", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.success(status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"ffffffffffffffffffffffffffffffff"}"#))),
            expected: [.checkpoint(.afterCreateAnswer),
                       failed(.assemblyIDMismatch, "the service answered for Assembly ffffffffffffffffffffffffffffffff, not \(id)", retryable: false),
                       .finish(.failed)]),
        Row(name: "a 503 waits the service's hint", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.failure(unavailable)), expected: unavailableRetry),
        Row(name: "after the wait the step runs again", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .createAnswered(.failure(unavailable))], event: .waited,
            expected: [.loadAttempt]),
        Row(name: "a refused creation fails the shard", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .createAnswered(.failure(invalid)), expected: [failed("INVALID_SIGNATURE", "no", retryable: false), .finish(.failed)]),
        Row(name: "a changed input is isolated", start: .signed, path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params)],
            event: .failed(changed), expected: [.isolate(file: 4, changed.reason)]),
        Row(name: "the others go on in a new Assembly", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .failed(changed)], event: .isolated(culprit: "a.jpg", othersLeft: 2),
            expected: [.report(.fileFailed, detail: "a.jpg: INPUT_CHANGED: a.jpg changed; 2 other files go on in a new Assembly",
                               file: "a.jpg", failure: changed.reason),
                       .transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "no file left: the shard fails", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .failed(changed)], event: .isolated(culprit: "a.jpg", othersLeft: 0),
            expected: [failed(.inputChanged, "a.jpg changed", retryable: false), .finish(.failed)]),
        Row(name: "a culprit that is not pending fails the shard", start: .signed,
            path: [.attempt(attempt(created: false)), .lookedUp(nil), .signed(params), .failed(changed)], event: .notIsolated,
            expected: [failed(.inputChanged, "a.jpg changed", retryable: false), .finish(.failed)]),

        // tus.
        Row(name: "tus: the Assembly is asked first", start: .created, tus: true, event: .attempt(attempt(tus: true)),
            expected: [.lookUp(url: machineURL)]),
        Row(name: "tus: no endpoint named", start: .created, tus: true, attempts: 1, event: .attempt(attempt(tus: false)),
            expected: [failed(.tusURLMissing, "the service named no tus endpoint for the Assembly", retryable: true), .finish(.failed)]),
        Row(name: "tus: an uploading Assembly gets its files", start: .created, tus: true, path: [.attempt(attempt(tus: true))], event: .lookedUp(uploading),
            expected: [.uploadByTus(attempt(tus: true), uploading)]),
        Row(name: "tus: a canceled Assembly runs the shard again", start: .created, tus: true, attempts: 1, path: [.attempt(attempt(tus: true))],
            event: .lookedUp(canceled),
            expected: [failed("ASSEMBLY_CANCELED", "the Assembly stopped before its uploads finished; the shard runs again", retryable: true), .finish(.failed)]),
        Row(name: "tus: a completed Assembly is kept: every upload had arrived before the stop", start: .created, tus: true,
            path: [.attempt(attempt(tus: true))], event: .lookedUp(completed),
            expected: [.transition(.uploaded, .uploaded, detail: ShardStateMachine.completedBeforeRecorded), .recordCompletion(completed),
                       .checkpoint(.afterCompleted), .loadDownloads]),
        Row(name: "tus: not found at the machine, the API host is asked", start: .created, tus: true, path: [.attempt(attempt(tus: true))],
            event: .lookedUp(nil), expected: [.report(.retrying, detail: "\(machineURL) does not answer; asking \(url)"), .lookUp(url: url)]),
        Row(name: "tus: the machine is gone, the API host is asked", start: .created, tus: true, path: [.attempt(attempt(tus: true))],
            event: .failed(ShardFailure(connectRefused)),
            expected: [.report(.retrying, detail: "\(machineURL) does not answer; asking \(url)"), .lookUp(url: url)]),
        Row(name: "tus: the API host names a new machine", start: .created, tus: true,
            path: [.attempt(attempt(tus: true)), .failed(ShardFailure(connectRefused))], event: .lookedUp(uploadingOnM2),
            expected: [.forgetStatusPacing(url: url), .recordStatusURL(machine2URL), .uploadByTus(attempt(tus: true), uploadingOnM2)]),
        Row(name: "tus: a gone Assembly", start: .created, tus: true, attempts: 1, path: [.attempt(attempt(tus: true)), .lookedUp(nil)],
            event: .lookedUp(nil),
            expected: [failed(.assemblyNotFound, "the service no longer knows the Assembly", retryable: true), .finish(.failed)]),
        Row(name: "tus: a restart cancels the Assembly left uploading", start: .created, tus: true,
            path: [.attempt(attempt(tus: true)), .lookedUp(uploading),
                   .failed(ShardFailure(code: .tusProtocolError, "no Location", retryable: true, needsNewAssembly: true))],
            event: .waited, expected: [.cancelAssembly(id), .transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "tus: a changed input restarts without it and cancels the Assembly", start: .created, tus: true,
            path: [.attempt(attempt(tus: true)), .lookedUp(uploading), .failed(changed)], event: .isolated(culprit: "a.jpg", othersLeft: 1),
            expected: [.cancelAssembly(id), .report(.fileFailed, detail: "a.jpg: INPUT_CHANGED: a.jpg changed; 1 other files go on in a new Assembly",
                                                  file: "a.jpg", failure: changed.reason),
                       .transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "tus: uploaded, then polled", start: .created, tus: true, path: [.attempt(attempt(tus: true)), .lookedUp(uploading)],
            event: .tusUploaded(detail: "2 files over tus"), expected: [.transition(.uploaded, .uploaded, detail: "2 files over tus"), .loadAttempt]),

        // Polling.
        Row(name: "polling starts", start: .uploaded, event: .attempt(attempt()), expected: [.pollStatus(url: machineURL)]),
        Row(name: "no status URL in the ledger", start: .uploaded, attempts: 1, event: .attempt(attempt(created: false)),
            expected: [failed(.assemblyURLMissing, "the ledger has no status URL for the Assembly", retryable: true), .finish(.failed)]),
        Row(name: "executing: recorded, then a pause", start: .uploaded, path: [.attempt(attempt())], event: .statusAnswered(executing),
            expected: [.checkpoint(.midPoll), .transition(.executing, .executing, detail: ""), .awaitChange(.seconds(1))]),
        Row(name: "after the pause, the next poll", start: .uploaded, path: [.attempt(attempt()), .statusAnswered(executing)], event: .waited,
            expected: [.pollStatus(url: machineURL)]),
        Row(name: "pauses grow by half up to the maximum", start: .executing,
            path: [.attempt(attempt()), .statusAnswered(executing), .waited], event: .statusAnswered(executing),
            expected: [.checkpoint(.midPoll), .awaitChange(.milliseconds(1_500))]),
        Row(name: "past the poll timeout", start: .executing, path: [.attempt(attempt())], event: .statusAnswered(executing),
            at: now.addingTimeInterval(41),
            expected: [.checkpoint(.midPoll), .cancelAssembly(id), failed(.pollTimeout, "the Assembly did not finish within 1m", retryable: false),
                       .finish(.failed)]),
        Row(name: "completed: results recorded, pacing forgotten", start: .executing, path: [.attempt(attempt())], event: .statusAnswered(completed),
            expected: [.checkpoint(.midPoll), .recordCompletion(completed), .checkpoint(.afterCompleted), .forgetStatusPacing(url: machineURL), .loadDownloads]),
        Row(name: "not found at the machine: the API host is asked", start: .executing, path: [.attempt(attempt())], event: .statusAnswered(nil),
            expected: askingTheAPIHost),
        Row(name: "a machine that does not answer: the API host is asked", start: .executing, path: [.attempt(attempt())],
            event: .failed(ShardFailure(connectRefused)), expected: askingTheAPIHost),
        Row(name: "a bare 404 from the machine: the API host is asked", start: .executing, path: [.attempt(attempt())],
            event: .failed(ShardFailure(TransloaditError(code: .http(404), message: "gone", httpStatus: 404, isRetryable: false))),
            expected: askingTheAPIHost),
        Row(name: "the API host names a new machine: recorded, polled there", start: .executing,
            path: [.attempt(attempt()), .failed(ShardFailure(connectRefused))], event: .statusAnswered(executingOnM2),
            expected: [.checkpoint(.midPoll), .forgetStatusPacing(url: url), .recordStatusURL(machine2URL), .awaitChange(.seconds(1))]),
        Row(name: "the next poll goes to the new machine", start: .executing,
            path: [.attempt(attempt()), .failed(ShardFailure(connectRefused)), .statusAnswered(executingOnM2)], event: .waited,
            expected: [.pollStatus(url: machine2URL)]),
        Row(name: "the API host does not answer either: a retry", start: .executing,
            path: [.attempt(attempt()), .failed(ShardFailure(connectRefused))], event: .failed(ShardFailure(connectRefused)),
            expected: firstRetry(of: "TRANSPORT_CONNECT: refused")),
        Row(name: "the Assembly is gone", start: .executing, path: [.attempt(attempt()), .statusAnswered(nil)], event: .statusAnswered(nil),
            expected: firstRetry(of: "ASSEMBLY_NOT_FOUND: the service no longer knows the Assembly")),
        Row(name: "a gone Assembly needs a new one", start: .executing, path: [.attempt(attempt()), .statusAnswered(nil), .statusAnswered(nil)], event: .waited,
            expected: [.transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "an execution error names its input", start: .executing, path: [.attempt(attempt())], event: .statusAnswered(corrupt),
            expected: [.checkpoint(.midPoll), .isolate(file: 4, FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false))]),
        Row(name: "an aborted request runs the shard again", start: .executing, attempts: 1, path: [.attempt(attempt())], event: .statusAnswered(aborted),
            expected: [.checkpoint(.midPoll), failed(.requestAborted, "cut off", retryable: true), .finish(.failed)]),
        Row(name: "a crashed Assembly runs the shard again", start: .executing, path: [.attempt(attempt())], event: .statusAnswered(crashed),
            expected: [.checkpoint(.midPoll)] + firstRetry(of: "ASSEMBLY_CRASHED: the machine broke")),
        Row(name: "a crashed Assembly needs a new one", start: .executing, path: [.attempt(attempt()), .statusAnswered(crashed)], event: .waited,
            expected: [.transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "an error the service calls retryable runs again, not isolated", start: .executing, path: [.attempt(attempt())],
            event: .statusAnswered(saysRetryable),
            expected: [.checkpoint(.midPoll)] + firstRetry(of: "IMAGE_RESIZE_ERROR: try later")),

        // Downloads.
        Row(name: "completed: download", start: .completed, event: .downloadsLoaded(attempt(.completed, completedAgo: 60), pending: [temporary]),
            expected: [.download([temporary])]),
        Row(name: "temporary results past their lifetime", start: .completed, attempts: 1,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), pending: [exported, temporary]),
            expected: [failed(.resultsExpired, "the results are past their lifetime; the shard runs again", retryable: true), .finish(.failed)]),
        Row(name: "results in the customer's storage outlive the lifetime", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), pending: [exported]),
            expected: [.download([exported])]),
        Row(name: "nothing left to download, past the lifetime", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), pending: []),
            expected: [.download([])]),
        Row(name: "every result in place", start: .completed, path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), pending: [temporary])], event: .downloaded(count: 2),
            expected: [.checkpoint(.beforeShardDone), .transition(.downloaded, .downloaded, detail: "2 files"), .finish(.downloaded)]),

        // Resuming a failed shard.
        Row(name: "its Assembly completed: download", start: .failed, event: .lastAttempt(attempt(.completed, completedAgo: 60)),
            expected: [.transition(.reopened(at: .completed), .restarted, detail: "downloading the results of Assembly \(id)"), .loadDownloads]),
        Row(name: "its Assembly failed retryably: poll again", start: .failed,
            event: .lastAttempt(attempt(.failed, failure: FailureReason(code: .http(503), message: "down", isRetryable: true))),
            expected: [.transition(.reopened(at: .executing), .restarted, detail: "polling Assembly \(id) again"), .loadAttempt]),
        Row(name: "its Assembly failed for good: a new attempt", start: .failed,
            event: .lastAttempt(attempt(.failed, failure: FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false))),
            expected: [.transition(.restarted, .restarted, detail: ""), .recordAttempt]),
        Row(name: "no attempt at all: a new one", start: .failed, event: .lastAttempt(nil),
            expected: [.transition(.restarted, .restarted, detail: ""), .recordAttempt]),
    ]

    @Test(arguments: rows)
    func eachStateAnswersEachEvent(_ row: Row) {
        var machine = ShardStateMachine(settings: Self.settings(tus: row.tus, attempts: row.attempts), seed: 7)
        _ = machine.start(from: row.start)
        for event in row.path { _ = machine.handle(event, at: Self.now) }
        #expect(machine.handle(row.event, at: row.at) == row.expected)
    }

    @Test(arguments: [
        (ShardState.planned, [Action.recordAttempt]), (.signed, [.loadAttempt]), (.created, [.loadAttempt]), (.uploaded, [.loadAttempt]),
        (.executing, [.loadAttempt]), (.completed, [.loadDownloads]), (.downloaded, [.finish(.downloaded)]), (.failed, [.loadLastAttempt]),
    ])
    func everyLedgerStateHasAStart(state: ShardState, expected: [Action]) {
        var machine = ShardStateMachine(settings: Self.settings(), seed: 7)
        #expect(machine.start(from: state) == expected)
    }

    @Test func retriesStopAfterTheLastTry() {
        var machine = ShardStateMachine(settings: Self.settings(attempts: 2), seed: 7)
        _ = machine.start(from: .signed)
        _ = machine.handle(.attempt(Self.attempt(created: false)), at: Self.now)
        #expect(machine.handle(.failed(ShardFailure(Self.unavailable)), at: Self.now).first
            == .report(.retrying, detail: "HTTP_503: down (try 2 of 2 in 30s)"))
        #expect(machine.handle(.waited, at: Self.now) == [.loadAttempt])
        #expect(machine.handle(.attempt(Self.attempt(created: false)), at: Self.now) == [.lookUp(url: Self.url)])
        #expect(machine.handle(.failed(ShardFailure(Self.unavailable)), at: Self.now)
            == [Self.failed(.http(503), "down", retryable: true), .finish(.failed)])
    }

    @Test func theSameSeedGivesTheSameWaits() {
        func waits(seed: UInt64) -> [Action] {
            var machine = ShardStateMachine(settings: Self.settings(attempts: 5), seed: seed)
            _ = machine.start(from: .signed)
            _ = machine.handle(.attempt(Self.attempt(created: false)), at: Self.now)
            let gone = ShardFailure(code: .assemblyNotFound, "gone", retryable: true)
            return (0..<3).flatMap { _ in
                let actions = machine.handle(.failed(gone), at: Self.now)
                _ = machine.handle(.waited, at: Self.now)
                _ = machine.handle(.attempt(Self.attempt(created: false)), at: Self.now)
                return actions
            }
        }
        #expect(waits(seed: 1) == waits(seed: 1))
        #expect(waits(seed: 1) != waits(seed: 2))
    }
}
