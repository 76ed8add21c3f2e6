import AssemblyLine
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// The shard driver in-process: the real state machine, driver and SQLite ledger against a scripted transport on a manual clock.
@Suite struct ShardRunnerTests {
    @Test func aShardGoesFromIntentToDownloaded() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.answerPolls(executing: 1)
        harness.serveResults()

        let end = try await harness.runShard()

        #expect(end == .downloaded)
        #expect(harness.eventKinds == [.started, .signed, .created, .uploaded, .executing, .completed, .downloaded])
        #expect(harness.transport.requests(.post, "/assemblies/").count == 1)
        // The creation answer said executing: the first status request waits for a change instead of asking again at once
        #expect(harness.transport.requests(.get, "\(ShardHarness.machine)/assemblies/").count == 2)
        #expect(harness.clock.waits == [.seconds(1), .milliseconds(1_500)])
        let shard = try await harness.ledger.shards(of: harness.run)[0]
        #expect(shard.state == .downloaded && shard.attemptCount == 1)
        let attempts = try await harness.ledger.attempts(of: harness.run, shard: 0)
        #expect(attempts.map(\.outcome) == [.completed])
        #expect(attempts[0].assemblyURL == "\(ShardHarness.machine)/assemblies/\(attempts[0].assemblyID)")
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .done])
        #expect(try await harness.ledger.results(of: harness.run, shard: 0).allSatisfy(\.isDownloaded))
        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == harness.contents[1])
    }

    @Test func aLostCreationAnswerContinuesWithTheAssemblyThatExists() async throws {
        let harness = try await ShardHarness()
        harness.transport.script(.post, "/assemblies/") { _ in
            .failure(.reset(endpoint: ShardHarness.endpoint, reason: "the connection closed before the answer"))
        }
        harness.transport.script(.get, "\(ShardHarness.endpoint)/assemblies/") {
            .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0)))
        }
        harness.answerPolls(executing: 0)
        harness.serveResults()

        let end = try await harness.runShard()

        #expect(end == .downloaded)
        #expect(harness.transport.requests(.post, "/assemblies/").count == 1)
        let lookups = harness.transport.requests(.get, "\(ShardHarness.endpoint)/assemblies/")
        let attempts = try await harness.ledger.attempts(of: harness.run, shard: 0)
        #expect(attempts.count == 1 && attempts[0].outcome == .completed)
        #expect(lookups.map(ShardHarness.assemblyID) == [attempts[0].assemblyID.rawValue])
        #expect(harness.eventKinds == [.started, .signed, .retrying, .created, .uploaded, .executing, .completed, .downloaded])
        guard case let .retry(reason, 2, 3, _) = harness.events[2].detail else {
            Issue.record("expected the second of three tries, found \(harness.events[2].detail)")
            return
        }
        #expect(reason.description == "TRANSPORT_RESET: transport: connection to https://api.test broke: the connection closed before the answer")
    }

    @Test func a413WithRetryInWaitsAndSendsTheSameAttemptAgainSignedAfresh() async throws {
        let harness = try await ShardHarness()
        harness.transport.script(.post, "/assemblies/") { _ in
            .json(413, #"{"error":"RATE_LIMIT_REACHED","message":"Request limit reached","info":{"retryIn":7}}"#)
        }
        harness.acceptCreation()
        harness.answerPolls(executing: 0)
        harness.serveResults()

        let end = try await harness.runShard()

        #expect(end == .downloaded)
        let creations = harness.transport.requests(.post, "/assemblies/")
        #expect(creations.count == 2 && Set(creations.map(\.url)).count == 1)
        #expect(creations[0].body != creations[1].body, "each try carries params with a fresh nonce")
        #expect(harness.clock.waits.contains(.seconds(7)))
        #expect(harness.events.contains(ShardEvent(shard: 0, kind: .retrying, detail: .rateLimited(.rateLimitReached, wait: .seconds(7)))))
        let attempts = try await harness.ledger.attempts(of: harness.run, shard: 0)
        #expect(attempts.count == 1)
        #expect(try await harness.ledger.shards(of: harness.run)[0].failure == nil)
    }

    @Test func aPollThatTimesOutFailsTheShardForGood() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/", times: 100) {
            .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0)))
        }

        harness.transport.script(.delete, "\(ShardHarness.endpoint)/assemblies/") {
            .json(200, ShardHarness.status("ASSEMBLY_CANCELED", id: ShardHarness.assemblyID(of: $0)))
        }

        let end = try await harness.runShard(pollTimeout: .seconds(10))

        #expect(end == .failed)
        // The Assembly the shard gave up on is cancelled at the API host, so that it stops costing.
        let attempt = try #require(try await harness.ledger.attempts(of: harness.run, shard: 0).first)
        #expect(harness.transport.requests(.delete, "/assemblies/").map(\.url) == ["\(ShardHarness.endpoint)/assemblies/\(attempt.assemblyID)"])
        #expect(try await harness.ledger.events(of: harness.run, shard: 0).contains {
            $0.kind == .attemptCancelled && $0.message == "Assembly \(attempt.assemblyID) abandoned, now ASSEMBLY_CANCELED"
        })
        #expect(harness.clock.waits == [.seconds(1), .milliseconds(1_500), .milliseconds(2_250), .milliseconds(3_375), .seconds(4)])
        #expect(harness.transport.requests(.get, "\(ShardHarness.machine)/assemblies/").count == 5)
        let shard = try await harness.ledger.shards(of: harness.run)[0]
        #expect(shard.state == .failed)
        #expect(shard.failure == FailureReason(code: .pollTimeout, message: "the Assembly did not finish within 10s", isRetryable: false))
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.failed, .failed])
        #expect(harness.transport.requests(.get, "https://tmp.test/").isEmpty)
    }

    @Test func resultsGoneRunTheShardAgainInANewAssembly() async throws {
        let harness = try await ShardHarness()
        harness.transport.script(.post, "/assemblies/", times: 2) {
            .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0)))
        }
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/", times: 2) { [harness] in
            .json(200, ShardHarness.status("ASSEMBLY_COMPLETED", id: ShardHarness.assemblyID(of: $0), results: harness.results()))
        }
        harness.transport.script(.get, "https://tmp.test/r0/") { _ in .json(404, #"{"error":"FILE_NOT_FOUND"}"#) }
        harness.transport.script(.get, "https://tmp.test/r0/") { [harness] _ in .bytes(200, harness.contents[0]) }
        harness.transport.script(.get, "https://tmp.test/r1/", times: 2) { [harness] _ in .bytes(200, harness.contents[1]) }

        let end = try await harness.runShard()

        #expect(end == .downloaded)
        let attempts = try await harness.ledger.attempts(of: harness.run, shard: 0)
        #expect(attempts.map(\.outcome) == [.completed, .completed])
        #expect(Set(harness.transport.requests(.post, "/assemblies/").map(ShardHarness.assemblyID))
            == Set(attempts.map(\.assemblyID.rawValue)))
        #expect(harness.eventKinds.filter { $0 == .restarted }.count == 1)
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .done])
        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == harness.contents[1])
    }
}

/// Machines cycle (docs "Get an Assembly status"): a gone machine is asked for no more, the API host answers instead.
@Suite struct MachineFallbackTests {
    static let machine2 = "https://api-m2.test"

    @Test func aGoneMachineIsLeftForTheAPIHostAndTheMachineItNames() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") { _ in
            .failure(.connect(endpoint: ShardHarness.machine, reason: "connection refused"))
        }
        harness.transport.script(.get, "\(ShardHarness.endpoint)/assemblies/") {
            let id = ShardHarness.assemblyID(of: $0)
            return .json(200, #"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(Self.machine2)/assemblies/\#(id)"}"#)
        }
        harness.transport.script(.get, "\(Self.machine2)/assemblies/") { [harness] in
            let id = ShardHarness.assemblyID(of: $0)
            return .json(200, #"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(Self.machine2)/assemblies/\#(id)","results":\#(harness.results())}"#)
        }
        harness.serveResults()

        #expect(try await harness.runShard() == .downloaded)

        #expect(harness.transport.requests(.post, "/assemblies/").count == 1)
        #expect(harness.transport.requests.filter { $0.method == .get && $0.url.contains("/assemblies/") }.map { $0.url.components(separatedBy: "/assemblies/")[0] }
            == [ShardHarness.machine, ShardHarness.endpoint, Self.machine2])
        let attempt = try #require(try await harness.ledger.attempts(of: harness.run, shard: 0).first)
        #expect(attempt.assemblyURL == "\(Self.machine2)/assemblies/\(attempt.assemblyID)" && attempt.outcome == .completed)
        #expect(try await harness.ledger.events(of: harness.run, shard: 0).contains { $0.kind == .attemptMoved })
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .done])
    }

    @Test func notFoundAtTheMachineIsDecidedByTheAPIHost() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") { _ in
            .json(404, #"{"error":"ASSEMBLY_INSTANCE_NOT_FOUND","message":"not on this machine"}"#)
        }
        harness.transport.script(.get, "\(ShardHarness.endpoint)/assemblies/") { [harness] in
            .json(200, ShardHarness.status("ASSEMBLY_COMPLETED", id: ShardHarness.assemblyID(of: $0), results: harness.results()))
        }
        harness.serveResults()

        #expect(try await harness.runShard() == .downloaded)
        #expect(harness.transport.requests(.post, "/assemblies/").count == 1)
        #expect(harness.output(0) == harness.contents[0])
    }
}
