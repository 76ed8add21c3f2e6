import AssemblyLine
import ConfigFormat
import Foundation
import Testing

/// The shard state machine without a process, a socket or a ledger: each row drives it to a state
/// with a path of events, sends one more, and compares the decision.
@Suite struct ShardStateMachineTests {
    typealias Event = ShardStateMachine.Event
    typealias Decision = ShardStateMachine.Decision
    typealias Command = ShardStateMachine.Command
    typealias Request = ShardStateMachine.Request

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let id = AssemblyID("0123456789abcdef0123456789abcdef")!
    static let endpoint = "https://api2.transloadit.com"
    static let url = "\(endpoint)/assemblies/\(id)"
    static let machineURL = "https://api2-m1.transloadit.com/assemblies/\(id)"
    static let tusURL = "https://api2-m1.transloadit.com/resumable/files/"
    static let params = SignedParams(params: #"{"auth":{}}"#, signature: "sha384:" + String(repeating: "0", count: 96))

    static let mapper = ResultMapper(runID: RunID("20990101T000000Z-aaaaaa")!, shardIndex: 0,
                                     output: OutputSettings(dir: "/out", layout: try! OutputLayout("{relpath}.{ext}")),
                                     urls: ResultURLRule(endpoint: endpoint))

    static func settings(tus: Bool = false, attempts: Int = 3, stream: Bool = true, pollTimeout: Duration = .seconds(60)) -> ShardStateMachine.Settings {
        ShardStateMachine.Settings(
            endpoint: endpoint, tus: tus, retry: RetryPolicy(attempts: attempts, baseDelay: .seconds(1), maxDelay: .seconds(2)),
            poll: PollSettings(interval: .seconds(1), maxInterval: .seconds(10), timeout: pollTimeout, stream: stream),
            resultLifetime: .seconds(86_400), mapper: mapper)
    }

    static func file(_ index: Int, _ name: String, state: FileState = .pending) -> FileRecord {
        FileRecord(index: index, shardIndex: 0, file: PlannedFile(path: "/in/\(name)", relativePath: name, size: 3, modifiedNanoseconds: 1),
                   state: state, failure: nil)
    }

    /// The shard's files: two pending, the corrupt one of the statuses below among them, and one done before.
    static let files = [file(4, "a.jpg"), file(5, "b.jpg"), file(6, "c.jpg", state: .failed)]
    static let pending = Array(files.prefix(2))

    static func attempt(_ outcome: AttemptOutcome = .open, number: Int = 1, created: Bool = true, tus: Bool = false,
                        completedAgo: TimeInterval? = nil, failure: FailureReason? = nil) -> AttemptRecord {
        AttemptRecord(
            shardIndex: 0, number: number, assemblyID: id, outcome: outcome, startedAt: now.addingTimeInterval(-30),
            assemblyURL: created ? machineURL : nil, tusURL: created && tus ? tusURL : nil,
            createdAt: created ? now.addingTimeInterval(-20) : nil,
            completedAt: completedAgo.map { now.addingTimeInterval(-$0) }, failure: failure)
    }

    /// When the polls of ``attempt(_:number:created:tus:completedAgo:failure:)`` run out: its creation and the 60 s `poll.timeout`.
    static let pollDeadline = now.addingTimeInterval(40)

    static func status(_ json: String) -> AssemblyStatus {
        AssemblyStatus.decode(Array(json.utf8))!
    }

    static let executing = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)"}"#)
    static let uploading = status(#"{"ok":"ASSEMBLY_UPLOADING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","tus_url":"\#(tusURL)"}"#)
    static let completed = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"r":[{"id":"x","name":"a.jpg","ssl_url":"https://tmp/a.jpg","size":3,"field":"file_4"}]}}"#)
    static let otherAssembly = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"ffffffffffffffffffffffffffffffff","assembly_ssl_url":"\#(machineURL)","results":{}}"#)
    static let completedAnonymously = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_ssl_url":"\#(machineURL)","results":{}}"#)
    static let flooded = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"r":["#
        + (0..<301).map { #"{"id":"x\#($0)","name":"a.jpg","ssl_url":"https://tmp/\#($0).jpg","field":"file_4"}"# }.joined(separator: ",") + "]}}")
    static let collided = status(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"r":["#
        + #"{"id":"x","name":"a.jpg","ssl_url":"https://tmp/a.jpg","field":"file_4"},{"id":"y","name":"a.jpg","ssl_url":"https://tmp/b.jpg","field":"file_4"}]}}"#)
    static let collisionRefused: [Command] = {
        let mapping = mapper.results(of: collided, files: files)
        let reason = FailureReason(code: .outputCollision, message: "a.jpg of step r renders to /out/a.jpg, which another result of the Assembly took; "
                                       + "nothing was overwritten", isRetryable: false)
        return [.transition(.completed(results: mapping.results), .completed, .results(count: 2, unreadable: 0, unmatched: 0)),
                .failFiles([4], reason), .report(.fileFailed, .resultRefused(file: "a.jpg", result: "a.jpg", reason)),
                .checkpoint(.afterCompleted)]
    }()
    static let canceled = status(#"{"ok":"ASSEMBLY_CANCELED","assembly_id":"\#(id)"}"#)
    static let corrupt = status(#"{"ok":null,"error":"IMAGE_RESIZE_ERROR","message":"bad","original_id":"u1","uploads":[{"id":"u1","field":"file_4"}]}"#)
    static let aborted = status(#"{"ok":null,"error":"REQUEST_ABORTED","message":"cut off"}"#)
    static let crashed = status(#"{"error":"ASSEMBLY_CRASHED","message":"the machine broke","assembly_id":"\#(id)"}"#)
    static let saysRetryable = status(#"{"error":"IMAGE_RESIZE_ERROR","message":"try later","retryable":true,"original_id":"u1","uploads":[{"id":"u1","field":"file_4"}]}"#)

    static func result(temporary: Bool, fetches: Int = 0) -> ResultRecord {
        ResultRecord(id: temporary ? 1 : 2, shardIndex: 0, attempt: 1, result: NewResult(
            source: .file(4), step: "thumb", remoteID: nil, name: "a.jpg", url: "https://tmp/a.jpg", size: 3, md5: nil, mime: nil,
            width: nil, height: nil, isTemporary: temporary, delivery: .download(to: "/out/a.jpg")), downloadedAt: nil, fetches: fetches)
    }

    static let temporary = result(temporary: true)
    static let exported = result(temporary: false)

    /// Result `id` of attempt `attempt`, made from the inputs `source` names; to download (in place once `downloaded`) unless `delivery` says otherwise.
    static func record(_ id: Int64, attempt: Int = 1, source: ResultSource = .file(4), delivery: NewResult.Delivery? = nil,
                       downloaded: Bool = false) -> ResultRecord {
        ResultRecord(id: id, shardIndex: 0, attempt: attempt, result: NewResult(
            source: source, step: "thumb", remoteID: "r\(id)", name: "r\(id).jpg", url: "https://tmp/r\(id).jpg", size: 3, md5: nil, mime: nil,
            width: nil, height: nil, delivery: delivery ?? .download(to: "/out/r\(id).jpg")), downloadedAt: downloaded ? now : nil)
    }

    static let machine2URL = "https://api2-m2.transloadit.com/assemblies/\(id)"
    static let executingOnM2 = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machine2URL)"}"#)
    static let uploadingOnM2 = status(#"{"ok":"ASSEMBLY_UPLOADING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machine2URL)","tus_url":"https://api2-m2.transloadit.com/resumable/files/"}"#)
    static let connectRefused = TransloaditError(code: .transportConnect, message: "refused", isRetryable: true)
    static let statusRateLimited = TransloaditError(code: .statusRateLimitReached, message: "slow down", httpStatus: 429,
                                                    retryIn: .seconds(3), isRetryable: true)
    static let rateLimited = TransloaditError(code: .rateLimitReached, message: "slow down", httpStatus: 413, retryIn: .seconds(7), isRetryable: true)
    static let reused = TransloaditError(code: .signatureReused, message: "seen before", httpStatus: 403, isRetryable: false)
    static let params2 = SignedParams(params: #"{"auth":{"nonce":"2"}}"#, signature: "sha384:" + String(repeating: "1", count: 96))
    static let idTaken = TransloaditError(code: .assemblyIDTaken, message: "taken", httpStatus: 409, isRetryable: false)
    static let answerCutOff = TransloaditError(code: .transportTimeout, message: "transport: timed out talking to https://api2-m1.transloadit.com:443",
                                               isRetryable: true)
    static let unavailable = TransloaditError(code: .http(503), message: "down", httpStatus: 503, retryIn: .seconds(30), isRetryable: true)
    static let invalid = TransloaditError(code: "INVALID_SIGNATURE", message: "no", httpStatus: 401, isRetryable: false)
    static let changed = ShardFailure(TransloaditError(code: .inputChanged, message: "a.jpg changed", isRetryable: false), uploading: 4)
    static let refused = ShardFailure(SigningError.denied(reason: "no"))

    static let streamURL = "https://api2-m1.transloadit.com/ws20013?assembly=\(id)"
    static let streaming = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","update_stream_url":"\#(streamURL)"}"#)
    static let resultOfA = #"{"id":"ra","name":"a.jpg","ext":"jpg","field":"file_4","size":3,"ssl_url":"https://tmp/ra/a.jpg"}"#
    static let executingWithResult = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"thumb":[\#(resultOfA)]}}"#)
    static let executingWithZip = status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(machineURL)","results":{"zip":[{"id":"z","name":"all.zip","ssl_url":"https://tmp/z/all.zip"}]}}"#)
    static let earlyResult = mapper.result(executingWithResult.results["thumb"]![0], step: "thumb", ordinal: 0,
                                           byIndex: Dictionary(uniqueKeysWithValues: files.map { ($0.index, $0) }))
    static let forbidden = TransloaditError(code: .http(403), message: "forbidden", httpStatus: 403, isRetryable: false)
    static let goneResult = TransloaditError(code: .http(404), message: "gone", httpStatus: 404, isRetryable: false)
    static let metadataAddress = TransloaditError(
        code: .transportRefusedAddress, message: TransportError.refusedAddress(endpoint: "https://tmp.test:443", address: "169.254.169.254, a cloud metadata address")
            .description,
        isRetryable: false)
    static let urlRefusal = FailureReason(
        code: .resultURLRefused,
        message: "a.jpg of step thumb is not fetched: transport: https://tmp.test:443 leads to 169.254.169.254, a cloud metadata address; "
            + "nothing was sent",
        isRetryable: false)
    static let truncated = TransloaditError(code: .downloadSizeMismatch, message: "a.jpg: 2 bytes received, 3 expected", isRetryable: true)

    /// One row: a start, a path to the state under test, the event, and the decision it must give.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var start: ShardState
        var tus = false
        var attempts = 3
        var stream = true
        var pollTimeout: Duration = .seconds(60)
        var path: [Event] = []
        var event: Event
        var at: Date = ShardStateMachineTests.now
        var expected: Decision
        var testDescription: String { name }
    }

    static func ask(_ commands: [Command], _ request: Request) -> Decision {
        Decision(commands, .request(request))
    }

    static func ask(_ request: Request) -> Decision {
        Decision(.request(request))
    }

    /// The shard's end, failed with the reason.
    static func failed(_ code: FailureCode, _ message: String, retryable: Bool, after commands: [Command] = []) -> Decision {
        let reason = FailureReason(code: code, message: message, isRetryable: retryable)
        return Decision(commands + [.transition(.failed(reason), .failed, .failed(reason))], .finish(.failed))
    }

    /// The note and wait of the first retry without a hint from the service, at the jitter seed 7 gives.
    static func firstRetry(_ code: FailureCode, _ message: String, after commands: [Command] = []) -> Decision {
        let wait = settings().retry.delay(after: 1, hint: nil, jitter: RetryPolicy.jitter(seed: 7, try: 1))
        return Decision(commands + [.noteRetry(.retry(FailureReason(code: code, message: message, isRetryable: true), number: 2, of: 3, wait: wait))],
                        .request(.wait(wait)))
    }

    static let unavailableRetry = ask([.noteRetry(.retry(FailureReason(code: .http(503), message: "down", isRetryable: true), number: 2, of: 3, wait: .seconds(30)))],
                                      .wait(.seconds(30)))
    static let askingTheAPIHost = ask([.forgetStatusPacing(url: machineURL), .noteRetry(.askingAPIHost(unreachable: machineURL, asking: url))],
                                      .paceStatus(url: url))
    static let askingTheAPIHostForTus = ask([.noteRetry(.askingAPIHost(unreachable: machineURL, asking: url))], .lookUp(url: url))

    /// What recording an accepted multipart Assembly writes: created with its URL and the pending files' bytes, then uploaded.
    static let recordedCreation: [Command] = [
        .transition(.created(assemblyURL: machineURL, tusURL: nil, bytesSent: 6), .created, .assembly(id.rawValue)),
        .transition(.uploaded, .uploaded, .none), .checkpoint(.afterCreated),
    ]
    static let recordedCompletion: [Command] = [
        .transition(.completed(results: mapper.results(of: completed, files: files).results), .completed, .results(count: 1, unreadable: 0, unmatched: 0)),
        .checkpoint(.afterCompleted),
    ]
    static let creating: [Event] = [.attempt(attempt(created: false), files: files), .lookedUp(nil), .signed(params)]
    static let changedReason = changed.reason
    static let corruptReason = FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false)
    static let startingOverWithoutA: [Command] = [.report(.fileFailed, .inputFailed(file: "a.jpg", changedReason, othersLeft: 1)),
                                                  .transition(.restarted, .restarted, .none)]

    /// A name the layout renders to an output no file can have (a name over 255 bytes), between two others.
    static let longName = String(repeating: "x", count: 300) + ".jpg"
    static let withLongName = [file(4, "a.jpg"), file(5, longName), file(6, "c.jpg")]
    /// Three pending files, for what becomes of each once the results are in.
    static let threePending = [file(4, "a.jpg"), file(5, "b.jpg"), file(7, "d.jpg")]
    static let tooLong = FailureReason(
        code: .outputNameTooLong, message: "/in/\(longName) is not sent: output.layout gives it /out/\(longName), which cannot be created: "
            + "a name in it is over the 255 bytes a file name may have", isRetryable: false)

    static func tusUpload(_ record: FileRecord) -> TusResumePlan.Upload {
        TusResumePlan.Upload(fileIndex: record.index, job: TusUploadJob(
            file: record.file, endpoint: tusURL, assemblyURL: machineURL, fieldname: "file_\(record.index)", filename: record.file.relativePath),
            checkpoint: nil)
    }

    static func upload(_ record: FileRecord, offset: Int64) -> UploadRecord {
        UploadRecord(shardIndex: 0, attempt: 1, fileIndex: record.index, url: tusURL + "f\(record.index)", offset: offset, length: 3,
                     createdAt: now, updatedAt: now)
    }

    static let tusChecked: [Event] = [.attempt(attempt(tus: true), files: files), .lookedUp(uploading), .tusUploadsLoaded([])]

    static let rows: [Row] = [
        // Where each ledger state starts.
        Row(name: "planned writes an intent", start: .planned, event: .attemptRecorded(id),
            expected: ask([.report(.started, .intent(id)), .checkpoint(.afterIntent)], .sign)),
        Row(name: "a new attempt's params are signed", start: .planned, path: [.attemptRecorded(id)], event: .signed(params),
            expected: ask([.transition(.signed, .signed, .none), .checkpoint(.afterSigned)], .loadAttempt)),
        Row(name: "a refused signature fails the shard", start: .planned, path: [.attemptRecorded(id)], event: .failed(refused),
            expected: failed(.signingRefused, "signing: the signing service denied the params: no", retryable: false)),
        Row(name: "fresh params create at once with the pending files", start: .planned, path: [.attemptRecorded(id), .signed(params)],
            event: .attempt(attempt(created: false), files: files), expected: ask(.create(id, params, files: pending))),
        Row(name: "resumed at signed, the Assembly is looked up first", start: .signed, event: .attempt(attempt(created: false), files: files),
            expected: ask(.lookUp(url: url))),
        Row(name: "an attempt missing from the ledger", start: .signed, attempts: 1, event: .attempt(nil, files: files),
            expected: failed(.noAttempt, "the ledger has no attempt for the shard", retryable: true)),
        Row(name: "resumed at signed, the Assembly exists", start: .signed, path: [.attempt(attempt(created: false), files: files)],
            event: .lookedUp(executing), expected: ask(recordedCreation + [.transition(.executing, .executing, .none)], .loadAttempt)),
        Row(name: "resumed at signed, no Assembly: sign again", start: .signed, path: [.attempt(attempt(created: false), files: files)],
            event: .lookedUp(nil), expected: ask(.sign)),
        Row(name: "signed again, then created", start: .signed, path: [.attempt(attempt(created: false), files: files), .lookedUp(nil)],
            event: .signed(params), expected: ask(.create(id, params, files: pending))),

        // Creation answers.
        Row(name: "the service accepts a running Assembly", start: .signed, path: creating, event: .createAnswered(.success(executing)),
            expected: ask([.checkpoint(.afterCreateAnswer)] + recordedCreation + [.transition(.executing, .executing, .none)], .loadAttempt)),
        Row(name: "the creation answer is already completed", start: .signed, path: creating, event: .createAnswered(.success(completed)),
            expected: ask([.checkpoint(.afterCreateAnswer)] + recordedCreation + recordedCompletion, .loadDownloads)),
        Row(name: "our ID taken: look it up", start: .signed, path: creating, event: .createAnswered(.failure(idTaken)), expected: ask(.lookUp(url: url))),
        Row(name: "our ID taken and the Assembly exists", start: .signed, path: creating + [.createAnswered(.failure(idTaken))], event: .lookedUp(executing),
            expected: ask(recordedCreation + [.transition(.executing, .executing, .none)], .loadAttempt)),
        Row(name: "taken by someone else", start: .signed, attempts: 1, path: creating + [.createAnswered(.failure(idTaken))], event: .lookedUp(nil),
            expected: failed(.assemblyIDTaken, "taken", retryable: true)),
        Row(name: "rate limited: back off and sign afresh", start: .signed, path: creating, event: .createAnswered(.failure(rateLimited)),
            expected: ask([.backOffCreations(.seconds(7)), .noteRetry(.rateLimited(.rateLimitReached, wait: .seconds(7)))], .sign)),
        Row(name: "signed afresh after the rate limit, created again", start: .signed, path: creating + [.createAnswered(.failure(rateLimited))],
            event: .signed(params2), expected: ask(.create(id, params2, files: pending))),
        Row(name: "reused params: look our ID up", start: .signed, path: creating, event: .createAnswered(.failure(reused)), expected: ask(.lookUp(url: url))),
        Row(name: "reused params, no Assembly: a retry signs afresh in the same attempt", start: .signed,
            path: creating + [.createAnswered(.failure(reused))], event: .lookedUp(nil), expected: firstRetry(.signatureReused, "seen before")),
        Row(name: "an answer for another Assembly", start: .signed, path: creating,
            event: .createAnswered(.success(status(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"ffffffffffffffffffffffffffffffff"}"#))),
            expected: failed(.assemblyIDMismatch, "the service answered for Assembly ffffffffffffffffffffffffffffffff, not \(id)", retryable: false,
                             after: [.checkpoint(.afterCreateAnswer)])),
        Row(name: "a 503 waits the service's hint", start: .signed, path: creating, event: .createAnswered(.failure(unavailable)), expected: unavailableRetry),
        Row(name: "after the wait the step runs again", start: .signed, path: creating + [.createAnswered(.failure(unavailable))], event: .waited,
            expected: ask(.loadAttempt)),
        Row(name: "a refused creation fails the shard", start: .signed, path: creating, event: .createAnswered(.failure(invalid)),
            expected: failed("INVALID_SIGNATURE", "no", retryable: false)),
        Row(name: "a changed input fails alone and the others go on in a new Assembly", start: .signed, path: creating, event: .failed(changed),
            expected: ask([.failFiles([4], changedReason)] + startingOverWithoutA, .recordAttempt)),
        Row(name: "a changed input that was the last pending fails the shard", start: .signed,
            path: [.attempt(attempt(created: false), files: [file(4, "a.jpg"), file(5, "b.jpg", state: .done)]), .lookedUp(nil), .signed(params)],
            event: .failed(changed), expected: failed(.inputChanged, "a.jpg changed", retryable: false, after: [.failFiles([4], changedReason)])),
        Row(name: "an output no file can have: the files up to it are checked first", start: .signed,
            path: [.attempt(attempt(created: false), files: withLongName), .lookedUp(nil)], event: .signed(params),
            expected: ask(.checkUnchanged(Array(withLongName.prefix(2))))),
        Row(name: "fresh params, an output no file can have: the files up to it are checked first", start: .planned,
            path: [.attemptRecorded(id), .signed(params)], event: .attempt(attempt(created: false), files: withLongName),
            expected: ask(.checkUnchanged(Array(withLongName.prefix(2))))),
        Row(name: "those unchanged, the input whose output no file can have fails alone, unsent, known bad", start: .signed,
            path: [.attempt(attempt(created: false), files: withLongName), .lookedUp(nil), .signed(params)], event: .unchanged,
            expected: ask([.failFiles([5], tooLong, knownBad: true), .report(.fileFailed, .inputFailed(file: longName, tooLong, othersLeft: 2)),
                           .transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "an input before it that changed fails first", start: .signed,
            path: [.attempt(attempt(created: false), files: withLongName), .lookedUp(nil), .signed(params)], event: .failed(changed),
            expected: ask([.failFiles([4], changedReason), .report(.fileFailed, .inputFailed(file: "a.jpg", changedReason, othersLeft: 2)),
                           .transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "a culprit that is not pending fails the shard", start: .signed, path: creating,
            event: .failed(ShardFailure(TransloaditError(code: .inputChanged, message: "c.jpg changed", isRetryable: false), uploading: 6)),
            expected: failed(.inputChanged, "c.jpg changed", retryable: false)),

        // tus.
        Row(name: "tus: the Assembly is asked first", start: .created, tus: true, event: .attempt(attempt(tus: true), files: files),
            expected: ask(.lookUp(url: machineURL))),
        Row(name: "tus: no endpoint named", start: .created, tus: true, attempts: 1, event: .attempt(attempt(tus: false), files: files),
            expected: failed(.tusURLMissing, "the service named no tus endpoint for the Assembly", retryable: true)),
        Row(name: "tus: an uploading Assembly: what the ledger holds of its uploads", start: .created, tus: true,
            path: [.attempt(attempt(tus: true), files: files)], event: .lookedUp(uploading), expected: ask(.loadTusUploads)),
        Row(name: "tus: the files the Assembly lacks go up", start: .created, tus: true, path: [.attempt(attempt(tus: true), files: files), .lookedUp(uploading)],
            event: .tusUploadsLoaded([upload(files[0], offset: 1)]),
            expected: ask(.uploadByTus(attempt: 1, [
                TusResumePlan.Upload(fileIndex: 4, job: tusUpload(files[0]).job, checkpoint: TusUploadCheckpoint(url: tusURL + "f4", offset: 1)),
                tusUpload(files[1]),
            ]))),
        Row(name: "tus: every file arrived: polled", start: .created, tus: true, path: [.attempt(attempt(tus: true), files: files), .lookedUp(uploading)],
            event: .tusUploadsLoaded([upload(files[0], offset: 3), upload(files[1], offset: 3)]),
            expected: ask([.transition(.uploaded, .uploaded, .everyFileArrived)], .loadAttempt)),
        Row(name: "tus: a canceled Assembly runs the shard again", start: .created, tus: true, attempts: 1, path: [.attempt(attempt(tus: true), files: files)],
            event: .lookedUp(canceled),
            expected: failed("ASSEMBLY_CANCELED", "the Assembly stopped before its uploads finished; the shard runs again", retryable: true)),
        Row(name: "tus: a completed Assembly is kept: every upload had arrived before the stop", start: .created, tus: true,
            path: [.attempt(attempt(tus: true), files: files)], event: .lookedUp(completed),
            expected: ask([.transition(.uploaded, .uploaded, .completedBeforeRecorded)] + recordedCompletion, .loadDownloads)),
        Row(name: "tus: not found at the machine, the API host is asked", start: .created, tus: true, path: [.attempt(attempt(tus: true), files: files)],
            event: .lookedUp(nil), expected: askingTheAPIHostForTus),
        Row(name: "tus: the machine is gone, the API host is asked", start: .created, tus: true, path: [.attempt(attempt(tus: true), files: files)],
            event: .failed(ShardFailure(connectRefused)), expected: askingTheAPIHostForTus),
        Row(name: "tus: the API host names a new machine", start: .created, tus: true,
            path: [.attempt(attempt(tus: true), files: files), .failed(ShardFailure(connectRefused))], event: .lookedUp(uploadingOnM2),
            expected: ask([.forgetStatusPacing(url: url), .recordStatusURL(machine2URL)], .loadTusUploads)),
        Row(name: "tus: a gone Assembly", start: .created, tus: true, attempts: 1, path: [.attempt(attempt(tus: true), files: files), .lookedUp(nil)],
            event: .lookedUp(nil), expected: failed(.assemblyNotFound, "the service no longer knows the Assembly", retryable: true)),
        Row(name: "tus: a restart cancels the Assembly left uploading", start: .created, tus: true,
            path: tusChecked + [.failed(ShardFailure(code: .tusProtocolError, "no Location", retryable: true, needsNewAssembly: true))],
            event: .waited, expected: ask([.cancelAssembly(id), .transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "tus: a changed input restarts without it and cancels the Assembly", start: .created, tus: true, path: tusChecked,
            event: .failed(changed), expected: ask([.failFiles([4], changedReason), .cancelAssembly(id)] + startingOverWithoutA, .recordAttempt)),
        Row(name: "tus: uploaded, then polled", start: .created, tus: true, path: tusChecked,
            event: .tusUploaded(TusUploadTotals(files: 2, bytesSent: 6, resumed: 1)),
            expected: ask([.transition(.uploaded, .uploaded, .uploadedOverTus(TusUploadTotals(files: 2, bytesSent: 6, resumed: 1)))], .loadAttempt)),

        // Polling.
        Row(name: "polling starts", start: .uploaded, event: .attempt(attempt(), files: files), expected: ask(.paceStatus(url: machineURL))),
        Row(name: "its turn come, a poll is answered within the time left to the poll's deadline", start: .uploaded,
            path: [.attempt(attempt(), files: files)], event: .paced, at: now.addingTimeInterval(10.5),
            expected: ask(.pollStatus(url: machineURL, within: .milliseconds(29_500)))),
        Row(name: "far from the deadline, within a status answer's deadline", start: .uploaded, pollTimeout: .seconds(3_600),
            path: [.attempt(attempt(), files: files)], event: .paced, expected: ask(.pollStatus(url: machineURL, within: RequestDeadline.answer))),
        Row(name: "no status URL in the ledger", start: .uploaded, attempts: 1, event: .attempt(attempt(created: false), files: files),
            expected: failed(.assemblyURLMissing, "the ledger has no status URL for the Assembly", retryable: true)),
        Row(name: "executing: recorded, then a pause", start: .uploaded, path: [.attempt(attempt(), files: files), .paced], event: .statusAnswered(executing),
            expected: ask([.checkpoint(.midPoll), .transition(.executing, .executing, .none)], .wait(.seconds(1)))),
        Row(name: "after the pause, the next poll", start: .uploaded, path: [.attempt(attempt(), files: files), .paced, .statusAnswered(executing)], event: .waited,
            expected: ask(.paceStatus(url: machineURL))),
        Row(name: "pauses grow by half up to the maximum", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(executing), .waited, .paced], event: .statusAnswered(executing),
            expected: ask([.checkpoint(.midPoll)], .wait(.milliseconds(1_500)))),
        Row(name: "past the poll timeout", start: .executing, path: [.attempt(attempt(), files: files), .paced], event: .statusAnswered(executing),
            at: now.addingTimeInterval(41),
            expected: failed(.pollTimeout, "the Assembly did not finish within 1m", retryable: false, after: [.checkpoint(.midPoll), .cancelAssembly(id)])),
        Row(name: "a status cut off at the poll timeout ends the shard, with no try again", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .failed(ShardFailure(answerCutOff)), at: now.addingTimeInterval(40),
            expected: failed(.pollTimeout, "the Assembly did not finish within 1m", retryable: false, after: [.cancelAssembly(id)])),
        Row(name: "a rate limit past the poll timeout is not asked again", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .failed(ShardFailure(statusRateLimited)), at: now.addingTimeInterval(41),
            expected: failed(.pollTimeout, "the Assembly did not finish within 1m", retryable: false, after: [.cancelAssembly(id)])),
        Row(name: "completed: results recorded, pacing forgotten", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(completed),
            expected: ask([.checkpoint(.midPoll)] + recordedCompletion + [.forgetStatusPacing(url: machineURL)], .loadDownloads)),
        Row(name: "a status naming another Assembly fails the shard and cancels ours", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(otherAssembly),
            expected: failed(.assemblyIDMismatch, "the service's status names Assembly ffffffffffffffffffffffffffffffff, not \(id)", retryable: false,
                             after: [.checkpoint(.midPoll), .cancelAssembly(id)])),
        Row(name: "a completed status naming no Assembly is refused", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(completedAnonymously),
            expected: failed(.assemblyIDMismatch, "the service's status names no Assembly, not \(id)", retryable: false,
                             after: [.checkpoint(.midPoll), .cancelAssembly(id)])),
        Row(name: "more results than the files may have fails the shard", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(flooded),
            expected: failed(.tooManyResults, "the Assembly gave 301 results for 3 files, more than limits.max_results_per_file (100) allows",
                             retryable: false, after: [.checkpoint(.midPoll)])),
        Row(name: "a second result for a taken path fails its file alone", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(collided),
            expected: ask([.checkpoint(.midPoll)] + collisionRefused + [.forgetStatusPacing(url: machineURL)], .loadDownloads)),
        Row(name: "not found at the machine: the API host is asked", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(nil), expected: askingTheAPIHost),
        Row(name: "a machine that does not answer: the API host is asked", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .failed(ShardFailure(connectRefused)), expected: askingTheAPIHost),
        Row(name: "a bare 404 from the machine: the API host is asked", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .failed(ShardFailure(TransloaditError(code: .http(404), message: "gone", httpStatus: 404, isRetryable: false))),
            expected: askingTheAPIHost),
        Row(name: "the API host names a new machine: recorded, polled there", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(connectRefused)), .paced], event: .statusAnswered(executingOnM2),
            expected: ask([.checkpoint(.midPoll), .forgetStatusPacing(url: url), .recordStatusURL(machine2URL)], .wait(.seconds(1)))),
        Row(name: "the next poll goes to the new machine", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(connectRefused)), .paced, .statusAnswered(executingOnM2)], event: .waited,
            expected: ask(.paceStatus(url: machine2URL))),
        Row(name: "the API host does not answer either: a retry", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(connectRefused)), .paced], event: .failed(ShardFailure(connectRefused)),
            expected: firstRetry(.transportConnect, "refused")),
        Row(name: "the Assembly is gone", start: .executing, path: [.attempt(attempt(), files: files), .paced, .statusAnswered(nil), .paced], event: .statusAnswered(nil),
            expected: firstRetry(.assemblyNotFound, "the service no longer knows the Assembly")),
        Row(name: "a gone Assembly needs a new one", start: .executing, path: [.attempt(attempt(), files: files), .paced, .statusAnswered(nil), .paced, .statusAnswered(nil)],
            event: .waited, expected: ask([.transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "an execution error names its input: it fails alone", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(corrupt),
            expected: ask([.checkpoint(.midPoll), .failFiles([4], corruptReason, knownBad: true),
                           .report(.fileFailed, .inputFailed(file: "a.jpg", corruptReason, othersLeft: 1)), .transition(.restarted, .restarted, .none)],
                          .recordAttempt)),
        Row(name: "an aborted request runs the shard again", start: .executing, attempts: 1, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(aborted), expected: failed(.requestAborted, "cut off", retryable: true, after: [.checkpoint(.midPoll)])),
        Row(name: "a crashed Assembly runs the shard again", start: .executing, path: [.attempt(attempt(), files: files), .paced], event: .statusAnswered(crashed),
            expected: firstRetry(.assemblyCrashed, "the machine broke", after: [.checkpoint(.midPoll)])),
        Row(name: "a crashed Assembly needs a new one", start: .executing, path: [.attempt(attempt(), files: files), .paced, .statusAnswered(crashed)],
            event: .waited, expected: ask([.transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "an error the service calls retryable runs again, not isolated", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(saysRetryable), expected: firstRetry("IMAGE_RESIZE_ERROR", "try later", after: [.checkpoint(.midPoll)])),

        // Rate limits on status requests.
        Row(name: "a rate-limited poll waits the hint", start: .executing, path: [.attempt(attempt(), files: files), .paced],
            event: .failed(ShardFailure(statusRateLimited)), expected: ask(.wait(.seconds(3)))),
        Row(name: "after the rate limit's wait, the same poll", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(statusRateLimited))], event: .waited, expected: ask(.paceStatus(url: machineURL))),
        Row(name: "the same poll's turn: the time left counted from then", start: .executing,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(statusRateLimited)), .waited], event: .paced,
            at: now.addingTimeInterval(3), expected: ask(.pollStatus(url: machineURL, within: .seconds(37)))),
        Row(name: "rate limits use up no try", start: .uploaded, attempts: 1,
            path: [.attempt(attempt(), files: files), .paced, .failed(ShardFailure(statusRateLimited)), .waited, .paced, .failed(ShardFailure(statusRateLimited)), .waited, .paced],
            event: .statusAnswered(executing), expected: ask([.checkpoint(.midPoll), .transition(.executing, .executing, .none)], .wait(.seconds(1)))),
        Row(name: "a rate-limited look-up asks the same again", start: .signed,
            path: [.attempt(attempt(created: false), files: files), .failed(ShardFailure(statusRateLimited))], event: .waited, expected: ask(.lookUp(url: url))),
        Row(name: "a rate-limited tus check asks the same again", start: .created, tus: true,
            path: [.attempt(attempt(tus: true), files: files), .failed(ShardFailure(statusRateLimited))], event: .waited,
            expected: ask(.lookUp(url: machineURL))),

        // The change stream and results fetched early.
        Row(name: "a running status's stream is followed and waited on", start: .uploaded, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(streaming),
            expected: ask([.follow(stream: streamURL), .checkpoint(.midPoll), .transition(.executing, .executing, .none)], .awaitChange(atMost: .seconds(10)))),
        Row(name: "poll.stream off: no stream, the interval", start: .uploaded, stream: false, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(streaming),
            expected: ask([.checkpoint(.midPoll), .transition(.executing, .executing, .none)], .wait(.seconds(1)))),
        Row(name: "the stream's word: the next poll", start: .uploaded, path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming)],
            event: .changeAwaited(.changed), expected: ask(.paceStatus(url: machineURL))),
        Row(name: "the stream ended: noted, polled, then waited on the interval", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming)], event: .changeAwaited(.streamEnded(reason: "HTTP 404")),
            expected: ask([.noteStreamEnded(url: streamURL, reason: "HTTP 404")], .paceStatus(url: machineURL))),
        Row(name: "an ended stream is not opened again", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming), .changeAwaited(.streamEnded(reason: "HTTP 404")), .paced],
            event: .statusAnswered(streaming), expected: ask([.checkpoint(.midPoll)], .wait(.milliseconds(1_500)))),
        Row(name: "a completed status closes the stream", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming), .changeAwaited(.changed), .paced], event: .statusAnswered(completed),
            expected: ask([.follow(stream: nil), .checkpoint(.midPoll)] + recordedCompletion + [.forgetStatusPacing(url: machineURL)], .loadDownloads)),
        Row(name: "a result listed while the Assembly executes starts early", start: .uploaded, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(executingWithResult),
            expected: ask([.prefetch([earlyResult]), .checkpoint(.midPoll), .transition(.executing, .executing, .none)], .wait(.seconds(1)))),
        Row(name: "a result started early is not started again", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(executingWithResult), .waited, .paced], event: .statusAnswered(executingWithResult),
            expected: ask([.checkpoint(.midPoll)], .wait(.milliseconds(1_500)))),
        Row(name: "a result without its input's field waits for the completion", start: .uploaded, path: [.attempt(attempt(), files: files), .paced],
            event: .statusAnswered(executingWithZip),
            expected: ask([.checkpoint(.midPoll), .transition(.executing, .executing, .none)], .wait(.seconds(1)))),
        Row(name: "a result the stream announces starts early and the wait goes on", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming)],
            event: .changeAwaited(.announced([.init(step: "thumb", file: executingWithResult.results["thumb"]![0])])), at: now.addingTimeInterval(4),
            expected: ask([.prefetch([earlyResult])], .awaitChange(atMost: .seconds(6)))),
        Row(name: "an announcement after the wait's end: the next poll", start: .uploaded,
            path: [.attempt(attempt(), files: files), .paced, .statusAnswered(streaming)],
            event: .changeAwaited(.announced([.init(step: "thumb", file: executingWithResult.results["thumb"]![0])])), at: now.addingTimeInterval(11),
            expected: ask([.prefetch([earlyResult])], .paceStatus(url: machineURL))),

        // Downloads.
        Row(name: "completed: download", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 60), results: [temporary], files: files), expected: ask(.download([temporary]))),
        Row(name: "only the completed attempt's results still to fetch are downloaded", start: .completed,
            event: .downloadsLoaded(attempt(.completed, number: 2, completedAgo: 60),
                                    results: [record(1), record(2, attempt: 2, downloaded: true), record(3, attempt: 2, delivery: .recorded),
                                              record(4, attempt: 2, delivery: .exported), record(5, attempt: 2)], files: files),
            expected: ask(.download([record(5, attempt: 2)]))),
        Row(name: "temporary results past their lifetime", start: .completed, attempts: 1,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), results: [exported, temporary], files: files),
            expected: failed(.resultsExpired, "the results are past their lifetime; the shard runs again", retryable: true)),
        Row(name: "results in the customer's storage outlive the lifetime", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), results: [exported], files: files), expected: ask(.download([exported]))),
        Row(name: "nothing left to download, past the lifetime", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 90_000), results: [], files: files), expected: ask(.download([]))),
        Row(name: "a temporary result fetched ten times needs a new Assembly", start: .completed,
            event: .downloadsLoaded(attempt(.completed, completedAgo: 60), results: [result(temporary: true, fetches: 10)], files: files),
            expected: firstRetry(.resultFetchLimit, "a.jpg was fetched 10 times; the shard runs again")),
        Row(name: "every result in place", start: .completed, path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [temporary], files: files)],
            event: .downloadsEnded([.init(temporary, error: nil)]),
            expected: Decision([.checkpoint(.beforeShardDone), .transition(.downloaded(done: [4], noResult: [5]), .downloaded, .downloads(count: 1))],
                               .finish(.downloaded))),
        Row(name: "a result of several inputs makes each done; a file no result counts for has none", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [record(1, source: .several([4, 5]))], files: threePending)],
            event: .downloadsEnded([.init(record(1, source: .several([4, 5])), error: nil)]),
            expected: Decision([.checkpoint(.beforeShardDone), .transition(.downloaded(done: [4, 5], noResult: [7]), .downloaded, .downloads(count: 1))],
                               .finish(.downloaded))),
        Row(name: "in place before or exported counts; recorded, naming none or of an earlier attempt does not", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, number: 2, completedAgo: 60),
                                    results: [record(1, source: .file(7), downloaded: true), record(2, attempt: 2, downloaded: true),
                                              record(3, attempt: 2, source: .file(5), delivery: .exported),
                                              record(4, attempt: 2, source: .file(7), delivery: .recorded),
                                              record(5, attempt: 2, source: .unmatched, delivery: .recorded)], files: threePending)],
            event: .downloadsEnded([]),
            expected: Decision([.checkpoint(.beforeShardDone), .transition(.downloaded(done: [4, 5], noResult: [7]), .downloaded, .downloads(count: 0))],
                               .finish(.downloaded))),
        Row(name: "storage refusing an export's result fails its file alone", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [exported], files: files)],
            event: .downloadsEnded([.init(exported, error: forbidden)]),
            expected: Decision([.failFiles([4], refusal), .report(.fileFailed, .resultRefused(file: "a.jpg", result: "a.jpg", refusal)),
                                .checkpoint(.beforeShardDone), .transition(.downloaded(done: [], noResult: [5]), .downloaded, .downloads(count: 1))],
                               .finish(.downloaded))),
        Row(name: "a result URL that led to a metadata address fails its file alone", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [temporary], files: files)],
            event: .downloadsEnded([.init(temporary, error: metadataAddress)]),
            expected: Decision([.failFiles([4], urlRefusal), .report(.fileFailed, .resultRefused(file: "a.jpg", result: "a.jpg", urlRefusal)),
                                .checkpoint(.beforeShardDone), .transition(.downloaded(done: [], noResult: [5]), .downloaded, .downloads(count: 1))],
                               .finish(.downloaded))),
        Row(name: "a result the service no longer has runs the shard again", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [temporary], files: files)],
            event: .downloadsEnded([.init(temporary, error: goneResult)]), expected: firstRetry(.http(404), "gone")),
        Row(name: "a download that did not verify is tried again", start: .completed,
            path: [.downloadsLoaded(attempt(.completed, completedAgo: 60), results: [temporary], files: files)],
            event: .downloadsEnded([.init(temporary, error: truncated)]), expected: firstRetry(.downloadSizeMismatch, "a.jpg: 2 bytes received, 3 expected")),

        // Resuming a failed shard.
        Row(name: "its Assembly completed: download", start: .failed, event: .lastAttempt(attempt(.completed, completedAgo: 60)),
            expected: ask([.transition(.reopened(at: .completed), .restarted, .reopened(id, at: .completed))], .loadDownloads)),
        Row(name: "its Assembly failed retryably: poll again", start: .failed,
            event: .lastAttempt(attempt(.failed, failure: FailureReason(code: .http(503), message: "down", isRetryable: true))),
            expected: ask([.transition(.reopened(at: .executing), .restarted, .reopened(id, at: .executing))], .loadAttempt)),
        Row(name: "its Assembly failed for good: a new attempt", start: .failed,
            event: .lastAttempt(attempt(.failed, failure: FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false))),
            expected: ask([.transition(.restarted, .restarted, .none)], .recordAttempt)),
        Row(name: "no attempt at all: a new one", start: .failed, event: .lastAttempt(nil),
            expected: ask([.transition(.restarted, .restarted, .none)], .recordAttempt)),
    ]

    static let refusal = FailureReason(
        code: .resultNotDownloadable,
        message: "storage refused a.jpg of step thumb (HTTP 403); an export Robot's results are recorded, not downloaded, unless "
            + "output.steps names their step: leave thumb out of output.steps",
        isRetryable: false)

    @Test(arguments: rows)
    func eachStateAnswersEachEvent(_ row: Row) {
        var machine = ShardStateMachine(settings: Self.settings(tus: row.tus, attempts: row.attempts, stream: row.stream, pollTimeout: row.pollTimeout),
                                        seed: 7)
        _ = machine.start(from: row.start)
        for event in row.path { _ = machine.handle(event, at: Self.now) }
        #expect(machine.handle(row.event, at: row.at) == row.expected)
    }

    @Test(arguments: [
        (ShardState.planned, Request.recordAttempt), (.signed, .loadAttempt), (.created, .loadAttempt), (.uploaded, .loadAttempt),
        (.executing, .loadAttempt), (.completed, .loadDownloads), (.failed, .loadLastAttempt),
    ])
    func everyLedgerStateHasAStart(state: ShardState, expected: Request) {
        var machine = ShardStateMachine(settings: Self.settings(), seed: 7)
        #expect(machine.start(from: state) == Decision(.request(expected)))
    }

    @Test func aDownloadedShardHasNothingToDo() {
        var machine = ShardStateMachine(settings: Self.settings(), seed: 7)
        #expect(machine.start(from: .downloaded) == Decision(.finish(.downloaded)))
    }

    @Test(arguments: [
        (AttemptOutcome.completed, true, false, ShardState?.some(.completed)), (.failed, true, true, .executing),
        (.failed, false, true, nil), (.failed, true, false, nil), (.open, true, true, nil), (.superseded, true, true, nil),
    ])
    func theReopenRule(outcome: AttemptOutcome, created: Bool, retryable: Bool, target: ShardState?) {
        let failure = outcome == .failed ? FailureReason(code: .http(503), message: "down", isRetryable: retryable) : nil
        #expect(Self.attempt(outcome, created: created, failure: failure).reopenTarget == target)
    }

    @Test func retriesStopAfterTheLastTry() {
        var machine = ShardStateMachine(settings: Self.settings(attempts: 2), seed: 7)
        _ = machine.start(from: .signed)
        _ = machine.handle(.attempt(Self.attempt(created: false), files: Self.files), at: Self.now)
        #expect(machine.handle(.failed(ShardFailure(Self.unavailable)), at: Self.now).commands
            == [.noteRetry(.retry(FailureReason(code: .http(503), message: "down", isRetryable: true), number: 2, of: 2, wait: .seconds(30)))])
        #expect(machine.handle(.waited, at: Self.now) == Self.ask(.loadAttempt))
        #expect(machine.handle(.attempt(Self.attempt(created: false), files: Self.files), at: Self.now) == Self.ask(.lookUp(url: Self.url)))
        #expect(machine.handle(.failed(ShardFailure(Self.unavailable)), at: Self.now)
            == Self.failed(.http(503), "down", retryable: true))
    }

    @Test func theSameSeedGivesTheSameWaits() {
        func waits(seed: UInt64) -> [Decision] {
            var machine = ShardStateMachine(settings: Self.settings(attempts: 5), seed: seed)
            _ = machine.start(from: .signed)
            _ = machine.handle(.attempt(Self.attempt(created: false), files: Self.files), at: Self.now)
            let gone = ShardFailure(code: .assemblyNotFound, "gone", retryable: true)
            return (0..<3).map { _ in
                let decision = machine.handle(.failed(gone), at: Self.now)
                _ = machine.handle(.waited, at: Self.now)
                _ = machine.handle(.attempt(Self.attempt(created: false), files: Self.files), at: Self.now)
                return decision
            }
        }
        #expect(waits(seed: 1) == waits(seed: 1))
        #expect(waits(seed: 1) != waits(seed: 2))
    }
}
