@testable import AssemblyLine
import HTTPMessages
import Synchronization
import Testing
import TestSupport

/// The HEADs of a URL list without identity columns go out in parallel, a bounded number at a time.
@Suite struct URLListProbeTests {
    /// A transport that holds every request until `needed` are in flight together, then answers each HEAD with an ETag.
    final class GatheringTransport: HTTPTransport {
        let needed: Int
        private let state = Mutex<(inFlight: Int, most: Int, waiting: [CheckedContinuation<Void, Never>])>((0, 0, []))

        init(needed: Int) {
            self.needed = needed
        }

        /// The most requests that were in flight at once.
        var most: Int { state.withLock { $0.most } }

        func send(_ request: HTTPRequestSpec, to destination: HTTPDestination, options: HTTPTransferOptions,
                  progress: TransferProgressHandler?) async throws(TransportError) -> HTTPResponseInfo {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.inFlight += 1
                    state.most = max(state.most, state.inFlight)
                    state.waiting.append(continuation)
                    guard state.waiting.count >= needed else { return [] }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                released.forEach { $0.resume() }
            }
            state.withLock { $0.inFlight -= 1 }
            let etag = "\"\(request.url.split(separator: "/").last ?? "")\""
            return HTTPResponseInfo(status: 200, headers: ["ETag": etag, "Content-Length": "3"], body: .bytes([]), url: request.url,
                                    bytesSent: 0, bytesReceived: 0, httpVersion: "1.1")
        }

        func cancelAll() {}
    }

    /// Remote inputs reached through `transport`: HEADs only.
    struct Probing: RemoteInputAccess {
        let transport: GatheringTransport

        func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
            Issue.record("no bucket in a URL list's plan")
            throw S3ListingError.invalidAddress(reason: "no bucket")
        }

        func headProbe(rule: InputURLRule) -> URLHeadProbe {
            URLHeadProbe(rule: rule, transport: transport)
        }
    }

    @Test(.timeLimit(.minutes(1))) func rowsWithoutIdentityAreAskedInParallelEachOnce() async throws {
        let directory = try TemporaryDirectory()
        let count = URLListPlanner.parallelProbes * 3
        _ = try directory.write("tonight.txt", (0..<count).map { "https://cdn.example.com/media/\($0).jpg\n" }.joined())
        let transport = GatheringTransport(needed: URLListPlanner.parallelProbes)
        let planner = URLListPlanner(list: URLListSettings(file: directory.file("tonight.txt"), format: nil), include: [], exclude: [],
                                     limits: ShardLimits(), endpoint: .url("https://api2.transloadit.com"))
        let planned = try await planner.plan(probingWith: Probing(transport: transport))

        let files = planned.plan.shards.flatMap(\.files)
        #expect(files.count == count && files.allSatisfy { $0.size == 3 })
        #expect(Set(files.map(\.modifiedNanoseconds)).count == count, "each its own ETag's stamp")
        #expect(transport.most == URLListPlanner.parallelProbes, "no more in flight than the bound, and the bound reached")
    }
}
