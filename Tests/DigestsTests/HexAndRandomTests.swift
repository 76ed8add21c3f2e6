import Digests
import Testing

/// Hex text, constant-time comparison and the random source.
@Suite struct HexAndRandomTests {
    @Test func encodesLowercase() {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.encode([]) == "")
    }

    @Test(arguments: [
        ("000fa0ff", [0x00, 0x0f, 0xa0, 0xff] as [UInt8]?),
        ("000FA0FF", [0x00, 0x0f, 0xa0, 0xff]),
        ("", []),
        ("abc", nil),
        ("0g", nil),
        ("0x12", nil),
    ])
    func decodes(text: String, bytes: [UInt8]?) {
        #expect(Hex.decode(text) == bytes)
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), []))
        #expect(ConstantTime.equals("sha384:ab", "sha384:ab"))
        #expect(!ConstantTime.equals("sha384:ab", "sha384:aB"))
    }

    @Test func randomBytesDiffer() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
    }

    @Test func randomHexIsLowercaseHexOfTheBytesAskedFor() throws {
        let id = try SecureRandom.hex(byteCount: 16)
        #expect(Hex.decode(id)?.count == 16)
        #expect(id == id.lowercased())
    }
}
