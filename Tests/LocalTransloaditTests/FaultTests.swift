import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing
import YAMLReader

/// Fault injection: seeded, reproducible, logged.
@Suite(.timeLimit(.minutes(3))) struct FaultTests {
    static let original = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]

    static func plan(_ yaml: String) throws -> FaultPlan {
        try FaultPlan.decode(try YAMLReader.parse(yaml, file: "faults.yaml"), file: "faults.yaml")
    }

    /// The statuses of `count` status requests on a fresh service with `plan`.
    static func statuses(_ plan: FaultPlan, count: Int) async throws -> (statuses: [Int], log: [String]) {
        let harness = try ServiceHarness { $0.faults = plan }
        let id = try #require(try await harness.create(params: harness.params(original))["assembly_id"]?.stringValue)
        var statuses: [Int] = []
        for _ in 0..<count {
            statuses.append(try await harness.get("/assemblies/\(id)").status)
        }
        return (statuses, harness.log)
    }

    @Test func sameSeedSameFaults() async throws {
        let plan = try Self.plan("seed: 42\nroutes:\n  status: {fail: 0.5, statuses: [500, 502, 503]}\n")
        let first = try await Self.statuses(plan, count: 30)
        let second = try await Self.statuses(plan, count: 30)
        #expect(first.statuses == second.statuses)
        #expect(Set(first.statuses).isSubset(of: [200, 500, 502, 503]))
        #expect(first.statuses.contains(200))
        #expect(first.statuses.contains { $0 >= 500 })
        let faulted = first.statuses.filter { $0 >= 500 }.count
        #expect(first.log.filter { $0.hasPrefix("fault: status request ") }.count == faulted)
        var other = plan
        other.seed = 43
        #expect(try await Self.statuses(other, count: 30).statuses != first.statuses)
    }

    @Test func droppedCreateStillCreatesTheAssembly() async throws {
        let harness = try ServiceHarness { $0.faults = try! Self.plan("seed: 1\nroutes:\n  create: {drop: 1}\n") }
        let id = AssemblyID.generate().rawValue
        await #expect(throws: TransportError.self) { _ = try await harness.create(params: harness.params(Self.original), id: id) }
        let status = try await harness.get("/assemblies/\(id)")
        #expect(status.status == 200)
        #expect(harness.log.contains { $0.contains("create request 1: connection dropped") })
    }

    @Test func cutCreationEndsAsRequestAborted() async throws {
        let harness = try ServiceHarness { $0.faults = try! Self.plan("seed: 3\nroutes:\n  create: {cut: 1}\n") }
        let file = try harness.textFile("big.txt", String(repeating: "x", count: 200_000))
        let id = AssemblyID.generate().rawValue
        await #expect(throws: TransportError.self) {
            _ = try await harness.create(params: harness.params(Self.original), files: [("f", file)], id: id)
        }
        let status = try await harness.get("/assemblies/\(id)")
        #expect(status["ok"]?.stringValue == "REQUEST_ABORTED")
        #expect(harness.log.contains { $0.contains("create request 1: connection cut after half the body") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory.file("data/tmp")).isEmpty)
    }

    @Test func cutPatchKeepsHalfTheChunk() async throws {
        let harness = try ServiceHarness { $0.faults = try! Self.plan("seed: 3\nroutes:\n  tus_patch: {cut: 1}\n") }
        let client = TusTests.Client(harness: harness)
        let file = try harness.textFile("data.bin", String(repeating: "0123456789", count: 10_000))
        let assemblyURL = try await client.assembly(expecting: 1, resizing: false)
        let upload = try #require(try await client.create(assemblyURL: assemblyURL, length: 100_000, filename: "data.bin").location)
        await #expect(throws: TransportError.self) { _ = try await client.patch(upload, path: file, offset: 0, length: 100_000) }
        #expect(try await client.head(upload).header("Upload-Offset") == "50000")
        let checked = try TusTests.Client.sha1(of: file, offset: 50_000, length: 50_000)
        await #expect(throws: TransportError.self) {
            _ = try await client.patch(upload, path: file, offset: 50_000, length: 50_000, checksum: checked)
        }
        #expect(try await client.head(upload).header("Upload-Offset") == "50000")
    }

    @Test func slowAnswersWait() async throws {
        let harness = try ServiceHarness { $0.faults = try! Self.plan("seed: 1\nroutes:\n  list: {slow: 1, delay: 300ms}\n") }
        let params = harness.params([:])
        let query = FormURLEncoding.encode([(name: "params", value: params), (name: "signature", value: harness.sign(params))])
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await harness.get("/assemblies?\(query)").status == 200)
        #expect(clock.now - start >= .milliseconds(300))
    }

    @Test func downloadsAreTruncatedOrCorrupted() async throws {
        let plan = try Self.plan("seed: 5\nroutes:\n  download: {truncate: 0.5, corrupt: 0.5}\n")
        let harness = try ServiceHarness { $0.faults = plan }
        let file = try harness.textFile("data.bin", String(repeating: "abcdefgh", count: 4096))
        let created = try await harness.create(params: harness.params(Self.original), files: [("f", file)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        let result = try #require(done["results"]?[":original"]?[0])
        let url = try #require(result["url"]?.stringValue)
        var truncated = 0, corrupted = 0
        for _ in 0..<6 {
            do {
                let (response, path) = try await harness.download(url)
                #expect(response.status == 200)
                #expect(Int(response.bytesReceived) == result["size"]?.intValue)
                #expect(Hex.encode(try Digest.hashFile(.md5, path: path)) != result["md5hash"]?.stringValue)
                corrupted += 1
            } catch {
                truncated += 1
            }
        }
        #expect(truncated > 0 && corrupted > 0)
        #expect(harness.log.filter { $0.contains("download truncated") }.count == truncated)
    }

    @Test func assembliesFailOnPurpose() async throws {
        let harness = try ServiceHarness { $0.faults = try! Self.plan("seed: 9\nassemblies: {fail: 1, error: WORKER_JOB_ERROR}\n") }
        let created = try await harness.create(params: harness.params(Self.original))
        let id = try #require(created["assembly_id"]?.stringValue)
        let done = try await harness.waitForEnd(id)
        #expect(done.status == 200)
        #expect(done["ok"] == .null)
        #expect(done["error"]?.stringValue == "WORKER_JOB_ERROR")
        #expect(harness.log.contains("fault: assembly \(id): fails with WORKER_JOB_ERROR"))
    }

    @Test func aFaultsFileCanSendMachinesAway() async throws {
        let plan = try Self.plan("seed: 1\nmachines: {cycle_after: 2}\n")
        #expect(plan.machinesCycleAfter == 2)
        let harness = try ServiceHarness { $0.faults = plan }
        let created = try await harness.create(params: harness.params(Self.original))
        let machine = try #require(created["assembly_ssl_url"]?.stringValue)
        #expect(try await harness.get(machine).status == 200)
        #expect(try await harness.get(machine).status == 200)
        #expect(try await harness.get(machine).status == 503)
        let refused = try #require(throws: ConfigError.self) { try Self.plan("seed: 1\nmachines: {cycle_after: 0}\n") }
        #expect(refused.description.contains("faults.yaml:2:25: machines.cycle_after: out of range; expected a whole number from 1 to 1000000000"))
    }

    @Test func faultFileErrorsNameTheirPlace() async throws {
        let yaml = """
            seed: -1
            routes:
              status: {fail: 1.5, statuses: [404]}
              create: {fail: 0.6, drop: 0.6, truncate: 0.1}
              list: {cut: 0.1}
              nowhere: {}
            """
        let error = try #require(throws: ConfigError.self) { try Self.plan(yaml) }
        let text = error.description
        #expect(text.contains("faults.yaml:1:7: seed: expected a whole number"))
        #expect(text.contains("faults.yaml:3:18: routes.status.fail: expected a share from 0 to 1, found '1.5'"))
        #expect(text.contains("faults.yaml:3:34: routes.status.statuses: expected a status from 500 to 599, found '404'"))
        #expect(text.contains("routes.create.truncate: applies to the download route only"))
        #expect(text.contains("routes.create: the shares add up to"))
        #expect(text.contains("routes.list.cut: applies to the create and tus_patch routes only"))
        #expect(text.contains("faults.yaml:6:3: routes.nowhere: unknown key 'nowhere'"))
    }
}
