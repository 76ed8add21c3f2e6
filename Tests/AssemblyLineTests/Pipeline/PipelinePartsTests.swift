@testable import AssemblyLine
import ConfigFormat
import Foundation
import Synchronization
import Testing

@Suite struct RetryPolicyTests {
    @Test func delaysGrowExponentiallyUpToTheCapWithJitterBetweenHalfAndWhole() {
        let policy = RetryPolicy(attempts: 6, baseDelay: .seconds(1), maxDelay: .seconds(10))
        #expect((1...6).map { policy.delay(after: $0, jitter: 0).milliseconds } == [500, 1_000, 2_000, 4_000, 5_000, 5_000])
        #expect((1...6).map { policy.delay(after: $0, jitter: 1).milliseconds } == [1_000, 2_000, 4_000, 8_000, 10_000, 10_000])
        #expect((1...200).allSatisfy { (500...1_000).contains(policy.delay(after: 1, jitter: RetryPolicy.jitter(seed: 42, try: $0)).milliseconds) })
    }

    @Test func aLongerServerHintWins() {
        let policy = RetryPolicy(attempts: 3, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.delay(after: 1, hint: .seconds(41), jitter: 1) == .seconds(41))
        #expect(policy.delay(after: 1, hint: .milliseconds(1), jitter: 1) == .milliseconds(100))
    }

    @Test func retriesStopAtTheAttemptCount() {
        let policy = RetryPolicy(attempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(1))
        #expect([1, 2, 3].map(policy.allowsRetry(after:)) == [true, true, false])
    }
}

@Suite struct AssemblyStatusTests {
    static let completed = """
        {"ok":"ASSEMBLY_COMPLETED","http_code":200,"assembly_id":"4723718834074932b22a59b209220018",
         "assembly_url":"http://a/assemblies/4723718834074932b22a59b209220018",
         "assembly_ssl_url":"https://a/assemblies/4723718834074932b22a59b209220018","tus_url":"https://a/resumable/files/",
         "uploads":[{"id":"u1","name":"cat.jpg","field":"file_7","size":1113,"meta":{"width":400,"height":300,"colorspace":"sRGB"}},
                    {"id":"u2","name":"dog.png","field":"file_9","size":99,"meta":{}}],
         "results":{"resize":[{"id":"r1","name":"cat.jpg","ext":"jpg","size":402,"md5hash":"abc","mime":"image/jpeg",
                               "original_id":"u1","ssl_url":"https://t/r1/cat.jpg","url":"http://t/r1/cat.jpg","meta":{"width":100,"height":75}},
                              {"id":"r2","name":"dog.webp","ext":"webp","size":50,"field":"file_9","url":"http://t/r2/dog.webp"}]}}
        """

    @Test func decodesWhatThePipelineUses() throws {
        let status = try #require(AssemblyStatus.decode(Array(Self.completed.utf8)))
        #expect(status.isCompleted && !status.isRunning)
        #expect(status.statusURL == "https://a/assemblies/4723718834074932b22a59b209220018")
        #expect(status.uploads.map(\.field) == ["file_7", "file_9"])
        #expect(status.results["resize"]?.first?.downloadURL == "https://t/r1/cat.jpg")
        #expect(status.results["resize"]?.first?.width == 100)
        #expect(status.results["resize"]?.last?.downloadURL == "http://t/r2/dog.webp")
    }

    @Test func rateLimitAnswersCarryTheirWait() throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"error":"RATE_LIMIT_REACHED","message":"Request limit reached","info":{"retryIn":41}}"#.utf8)))
        let error = TransloaditError(status: 413, body: status, retryAfter: nil)
        #expect(error.isRetryable && error.isRateLimit)
        #expect(error.retryIn == .seconds(41))
        #expect(error.code == "RATE_LIMIT_REACHED")
    }

    @Test(arguments: [(500, true), (502, true), (429, true), (413, true), (400, false), (401, false), (404, false)])
    func statusesWithoutABodyAreRetryableOnlyWhenAWaitCanHelp(status: Int, retryable: Bool) {
        let error = TransloaditError(status: status, body: nil, retryAfter: "7")
        #expect(error.isRetryable == retryable)
        #expect(error.code == "HTTP_\(status)")
        #expect(error.retryIn == .seconds(7))
    }

    @Test func executionErrorsAreNotRunning() throws {
        let status = try #require(AssemblyStatus.decode(Array(#"{"ok":null,"error":"IMAGE_RESIZE_ERROR","message":"bad"}"#.utf8)))
        #expect(!status.isRunning && !status.isCompleted)
    }
}

@Suite struct ResultMapperTests {
    @Test func resultsMapToTheirInputsByFieldOrOriginalIDAndFollowTheLayout() throws {
        // dog.webp has only a `url`, which production makes https too
        let completed = AssemblyStatusTests.completed.replacingOccurrences(of: "http://t/r2/dog.webp", with: "https://t/r2/dog.webp")
        let status = try #require(AssemblyStatus.decode(Array(completed.utf8)))
        let files = [
            FileRecord(index: 7, shardIndex: 2, file: PlannedFile(path: "/in/a/cat.jpeg", relativePath: "a/cat.jpeg", size: 1, modifiedNanoseconds: 0), state: .pending, failure: nil),
            FileRecord(index: 9, shardIndex: 2, file: PlannedFile(path: "/in/dog.png", relativePath: "dog.png", size: 1, modifiedNanoseconds: 0), state: .pending, failure: nil),
        ]
        let output = OutputSettings(dir: "/out", layout: try OutputLayout("{run}/{step}/{relpath}.{ext}"), formats: ["resize": "jpg"])
        let mapper = ResultMapper(runID: try RunID(parsing: "20261130T210501Z-3f9a2c"), shardIndex: 2, output: output,
                                  urls: ResultURLRule(endpoint: "https://api2.transloadit.com"))
        let results = mapper.results(of: status, files: files).results
        #expect(results.map(\.fileIndex) == [7, 9])
        #expect(results.map(\.outputPath) == ["/out/20261130T210501Z-3f9a2c/resize/a/cat.jpg", "/out/20261130T210501Z-3f9a2c/resize/dog.jpg"],
                "the recipe's format is {ext}, not what the service calls the result (dog.webp)")
        #expect(results.first?.md5 == "abc")
        #expect(results.first?.size == 402)
    }

    @Test func fieldNamesRoundTrip() {
        #expect(ResultMapper.fileIndex(ofField: ResultMapper.field(forFile: 42)) == 42)
        #expect(ResultMapper.fileIndex(ofField: "file") == nil)
        #expect(ResultMapper.fileIndex(ofField: "photo_3") == nil)
    }
}

/// Counts how many tasks are inside a section, and the most at once.
final class Gauge: Sendable {
    private let state = Mutex((current: 0, peak: 0))

    func enter() { state.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) } }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

@Suite struct AsyncSemaphoreTests {
    @Test(arguments: [1, 3, 8])
    func neverMoreThanTheLimitRunAtOnce(limit: Int) async throws {
        let semaphore = AsyncSemaphore(limit: limit)
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await semaphore.withSlot {
                        gauge.enter()
                        await Task.yield()
                        try await Task.sleep(for: .milliseconds(1))
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.peak == limit)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let semaphore = AsyncSemaphore(limit: 1)
        try await semaphore.acquire()
        let waiter = Task { try await semaphore.acquire() }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await semaphore.release()
        try await semaphore.acquire()
    }
}
