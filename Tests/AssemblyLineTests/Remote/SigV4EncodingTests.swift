import AssemblyLine
import TestSupport
import Testing

/// The SigV4 percent-encoding: unreserved bytes kept, every other byte `%XX`, and nothing lost.
@Suite struct SigV4EncodingTests {
    @Test func plusSlashEqualsSpaceAndNonASCIIAreEncodedInValues() {
        #expect(SigV4Encoding.encode("a+b/c==") == "a%2Bb%2Fc%3D%3D")
        #expect(SigV4Encoding.encode("über straße") == "%C3%BCber%20stra%C3%9Fe")
        #expect(SigV4Encoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(SigV4Encoding.encode("%41") == "%2541")
    }

    @Test func aPathKeepsItsSlashesAndEncodesEachSegment() {
        #expect(SigV4Encoding.encodePath("/bucket/a b/c+d=e") == "/bucket/a%20b/c%2Bd%3De")
    }

    @Test func theQueryIsSortedByEncodedName() {
        let query = SigV4Encoding.canonicalQuery([("prefix", "x"), ("list-type", "2"), ("continuation-token", "t"), ("max-keys", "5")])
        #expect(query == "continuation-token=t&list-type=2&max-keys=5&prefix=x")
    }

    /// Property: for random Unicode text, the encoding holds only unreserved bytes and `%XX` (uppercase),
    /// and decoding it gives the text's UTF-8 back.
    @Test func randomTextEncodesToUnreservedBytesAndPercentTripletsThatDecodeBack() {
        var generator = SplitMix64(seed: 35)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "-", ".", "_", "~", "+", "/", "=", "&", "%", " ", "?", "#", "\u{0}",
                                          "\u{7F}", "é", "ß", "写", "😀", "\u{202E}"]
        for _ in 0..<500 {
            let length = Int(generator.next() % 24)
            var text = ""
            for _ in 0..<length {
                text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            let encoded = Array(SigV4Encoding.encode(text).utf8)
            var decoded: [UInt8] = []
            var index = 0
            while index < encoded.count {
                if encoded[index] == UInt8(ascii: "%") {
                    let hex = String(decoding: encoded[(index + 1)...(index + 2)], as: UTF8.self)
                    #expect(hex == hex.uppercased())
                    guard let byte = UInt8(hex, radix: 16) else {
                        Issue.record("bad triplet in \(encoded)")
                        return
                    }
                    decoded.append(byte)
                    index += 3
                } else {
                    #expect(SigV4Encoding.isUnreserved(encoded[index]))
                    decoded.append(encoded[index])
                    index += 1
                }
            }
            #expect(decoded == Array(text.utf8))
        }
    }
}
