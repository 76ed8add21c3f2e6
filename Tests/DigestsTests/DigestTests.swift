import Digests
import Foundation
import TestSupport
import Testing

/// Known digests (FIPS 180 / RFC 1321 examples), streaming equal to one-shot, and file hashing.
@Suite struct DigestTests {
    struct Known: Sendable {
        var algorithm: Digest.Algorithm
        var empty: String
        var abc: String
        var millionA: String
    }

    static let known: [Known] = [
        .init(algorithm: .md5, empty: "d41d8cd98f00b204e9800998ecf8427e", abc: "900150983cd24fb0d6963f7d28e17f72",
              millionA: "7707d6ae4e027c70eea2a935c2296f21"),
        .init(algorithm: .sha1, empty: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
              abc: "a9993e364706816aba3e25717850c26c9cd0d89d", millionA: "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        .init(algorithm: .sha256, empty: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
              abc: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
              millionA: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test(arguments: known)
    func aCopyGoesOnFromWhatItsOriginalHadSeen(_ known: Known) {
        let original = Digest(known.algorithm)
        original.update(Array("ab".utf8))
        let copy = original.copy()
        copy.update(Array("c".utf8))
        original.update(Array("x".utf8))
        #expect(Hex.encode(copy.finalize()) == known.abc)
        #expect(original.finalize() == Digest.hash(known.algorithm, Array("abx".utf8)))
    }

    @Test(arguments: known)
    func knownDigests(_ known: Known) {
        #expect(Hex.encode(Digest.hash(known.algorithm, [])) == known.empty)
        #expect(Hex.encode(Digest.hash(known.algorithm, Array("abc".utf8))) == known.abc)
        #expect(Hex.encode(Digest.hash(known.algorithm, [UInt8](repeating: 0x61, count: 1_000_000))) == known.millionA)
    }

    @Test func namedOneShots() {
        let abc = Array("abc".utf8)
        #expect(Digest.md5(abc) == Digest.hash(.md5, abc))
        #expect(Digest.sha1(abc) == Digest.hash(.sha1, abc))
        #expect(Digest.sha256(abc) == Digest.hash(.sha256, abc))
    }

    @Test(arguments: Digest.Algorithm.allCases, [1, 7, 64, 1000])
    func incrementalEqualsOneShot(algorithm: Digest.Algorithm, pieceSize: Int) {
        // Given 10,000 bytes of a non-repeating pattern fed in pieces
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 / 256) }
        let digest = Digest(algorithm)
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            digest.update(bytes[start..<end])
            start = end
        }
        // Then the result is the one-shot digest
        let streamed = digest.finalize()
        #expect(streamed == Digest.hash(algorithm, bytes))
        #expect(streamed.count == algorithm.byteCount)
    }

    @Test func fileHashingStreamsRangesAndWholeFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/data.bin"
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(try Digest.hashFile(.md5, path: path, bufferSize: 4096) == Digest.md5(bytes))
        #expect(try Digest.hashFile(.sha1, path: path, offset: 1000, length: 65_536, bufferSize: 1000)
            == Digest.sha1(bytes[1000..<66_536]))
    }

    @Test func anOpenFileIsHashedThroughItsDescriptorUpToTheLengthGiven() throws {
        // Given: an open file whose path is gone
        let directory = try TemporaryDirectory()
        let path = directory.path + "/open.bin"
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        unlink(path)

        // Then: it is hashed through the descriptor, to the length given and no further, and stays open
        #expect(try Digest.hashFile(.md5, descriptor: descriptor, path: path, length: 10_000, bufferSize: 4096) == Digest.md5(bytes))
        #expect(try Digest.hashFile(.md5, descriptor: descriptor, path: path, length: 6_000) == Digest.md5(bytes[0..<6_000]))
        let error = #expect(throws: HMACError.self) { try Digest.hashFile(.md5, descriptor: descriptor, path: path, length: 10_001) }
        #expect(error?.description.contains("ended at byte 10000") == true)
    }

    @Test func fileErrorsNameThePath() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/missing.bin"
        #expect(throws: HMACError.fileIO(path: missing, reason: "No such file or directory")) {
            try Digest.hashFile(.md5, path: missing)
        }
        let short = directory.path + "/short.bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: short))
        let error = #expect(throws: HMACError.self) { try Digest.hashFile(.md5, path: short, offset: 0, length: 10) }
        #expect(error?.description.contains(short) == true)
    }
}

