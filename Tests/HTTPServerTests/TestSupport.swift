import Foundation
import HTTPServer
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a `curl` run printed and how it exited.
struct CurlResult {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `/usr/bin/curl` with `arguments` (plus `-sS`), reading its pipes before waiting for it, on a thread of its own:
/// a blocked thread of the cooperative pool (two on this machine) would stall every other test of the process.
func curl(_ arguments: [String]) async throws -> CurlResult {
    try await offThePool { try curlBlocking(arguments) }
}

/// ``curl(_:)`` on the calling thread, for a test that already runs on a thread of its own.
func curlBlocking(_ arguments: [String]) throws -> CurlResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-sS", "--max-time", "30"] + arguments
    let output = ChildLaunch.pipe(), errors = ChildLaunch.pipe()
    process.standardOutput = output
    process.standardError = errors
    try ChildLaunch.run(process)
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complained = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilEnded()
    return CurlResult(
        status: process.terminationStatus,
        output: String(decoding: printed, as: UTF8.self),
        errors: String(decoding: complained, as: UTF8.self))
}

/// Sends raw bytes to a server, for requests no well-behaved client sends, then closes the socket.
///
/// With `readReply`, it first reads until the server closes; with `halfClose` as well, it shuts
/// its own sending side down before reading (so the server sees the end of the request).
func sendRaw(_ bytes: [UInt8], to port: UInt16, readReply: Bool = false, halfClose: Bool = true) throws -> [UInt8] {
    guard let connection = RawConnection(port: port) else { throw POSIXError(.ECONNREFUSED) }
    connection.send(bytes)
    guard readReply else { return [] }
    if halfClose {
        connection.closeWriting()
    }
    return connection.receiveUntilClosed()
}

/// Writes `size` deterministic pseudo-random bytes to `path`, a megabyte at a time.
func writeRandomFile(_ path: String, size: Int, seed: UInt64) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
          let handle = FileHandle(forWritingAtPath: path) else { throw POSIXError(.EIO) }
    defer { try? handle.close() }
    var state = seed
    var left = size
    while left > 0 {
        let count = min(left, 1 << 20)
        var block = [UInt64](repeating: 0, count: (count + 7) / 8)
        for index in block.indices {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            block[index] = z ^ (z >> 27)
        }
        try block.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(count))) }
        left -= count
    }
}

/// A 64-bit FNV-1a over a file's 8-byte words (and its tail), read a megabyte at a time.
func checksum(ofFile path: String) throws -> (size: Int, hash: UInt64) {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw POSIXError(.ENOENT) }
    defer { try? handle.close() }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var size = 0
    while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
        size += block.count
        block.withUnsafeBytes { bytes in
            let words = bytes.count / 8
            for index in 0..<words {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01B3
            }
            for byte in bytes[(words * 8)...] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            }
        }
    }
    return (size, hash)
}

/// Waits up to `timeout` for `condition` to hold, checking every 10 ms on a thread of its own.
func eventually(timeout: Duration = .seconds(5), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    (try? await offThePool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }) ?? false
}

/// A thread-safe box for what handlers observe, read by the test afterwards.
final class Observed<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ initial: Value) {
        value = Mutex(initial)
    }

    func update(_ change: (inout Value) -> Void) {
        value.withLock { change(&$0) }
    }

    var current: Value { value.withLock { $0 } }
}

