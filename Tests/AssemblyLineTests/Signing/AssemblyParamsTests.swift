@testable import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

@Suite struct AssemblyParamsTests {
    /// 2026-05-20T14:03:07.600Z.
    static let now = Date(timeIntervalSince1970: 1_779_285_787.6)

    @Test func serializesExactBytesWithSortedKeys() {
        // Given a template recipe with fields and a notify URL
        let params = AssemblyParams(
            key: "2b0c45611f6440dfb64611e872ec3211", expiresIn: .seconds(3600),
            recipe: .template(id: "tpl-1", fields: ["album": .string("summer/2026"), "count": .integer(3)]),
            notifyURL: "https://example.com/hook")
        // When it is serialized with a known clock and nonce
        let text = params.serialized(now: Self.now, nonce: "00112233445566778899aabbccddeeff")
        // Then the bytes are exactly these: sorted keys, no spaces, `/` unescaped, expiry to the second
        #expect(text == #"{"auth":{"expires":"2026/05/20 15:03:07+00:00","key":"2b0c45611f6440dfb64611e872ec3211","#
            + #""nonce":"00112233445566778899aabbccddeeff"},"fields":{"album":"summer/2026","count":3},"#
            + #""notify_url":"https://example.com/hook","template_id":"tpl-1"}"#)
    }

    @Test func replayParamsReparseTheTemplateWithTheFieldsAndNoInstructions() {
        let params = AssemblyParams(key: "k", expiresIn: .seconds(60), recipe: .template(id: "tpl-1", fields: ["size": .integer(320)]),
                                    notifyURL: "https://example.com/hook", tags: ["assemblyline_partition": .string("1/2")])
        #expect(params.replaySerialized(now: Self.now, nonce: "n") == #"{"auth":{"expires":"2026/05/20 14:04:07+00:00","key":"k","nonce":"n"},"#
            + #""fields":{"assemblyline_partition":"1/2","size":320},"notify_url":"https://example.com/hook","reparse_template":1}"#)
    }

    @Test func theInputsFieldsGoOverTheRecipesAndTheTagsOverBoth() {
        var params = AssemblyParams(key: "k", expiresIn: .seconds(60),
                                    recipe: .template(id: "tpl-1", fields: ["album": .string("recipe"), "size": .integer(320)]),
                                    tags: ["assemblyline_partition": .string("1/2")])
        params.inputFields = ["album": .string("summer"), "assemblyline_partition": .string("row")]
        #expect(params.value(now: Self.now, nonce: "n").objectValue?["fields"]
            == .object(["album": .string("summer"), "size": .integer(320), "assemblyline_partition": .string("1/2")]))
    }

    @Test func resizeParamsCarryStepsAndNoFields() {
        let settings = ResizeSettings(width: 200, height: nil, strategy: .fit, format: nil, quality: nil, background: nil, zoom: true)
        let text = AssemblyParams(key: "k", expiresIn: .seconds(60), recipe: .resize(settings))
            .serialized(now: Self.now, nonce: "n")
        #expect(text == #"{"auth":{"expires":"2026/05/20 14:04:07+00:00","key":"k","nonce":"n"},"#
            + #""steps":{":original":{"robot":"/upload/handle"},"resize":{"resize_strategy":"fit","result":true,"#
            + #""robot":"/image/resize","use":":original","width":200}}}"#)
    }

    @Test func nonceIsThirtyTwoHexFromTheGenerator() {
        var first = SplitMix64(seed: 7), second = SplitMix64(seed: 7)
        let nonce = AssemblyParams.nonce(using: &first)
        #expect(nonce.count == AssemblyParams.nonceLength)
        #expect(nonce.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(AssemblyParams.nonce(using: &second) == nonce)
        #expect(AssemblyParams.nonce(using: &first) != nonce)
    }

    @Test func eachAttemptGetsAFreshNonce() throws {
        let params = AssemblyParams(key: "k", expiresIn: .seconds(60), recipe: .template(id: "t", fields: [:]))
        let nonces = try (0..<50).map { _ in
            try #require(try JSONValue(parsing: params.serialized(now: Self.now)).objectValue?["auth"]?.objectValue?["nonce"]?.stringValue)
        }
        #expect(Set(nonces).count == 50)
    }

    @Test(arguments: [
        (0.0, "1970/01/01 00:00:00+00:00"),
        (951_868_799.999, "2000/02/29 23:59:59+00:00"),
        (1_779_285_787.6, "2026/05/20 14:03:07+00:00"),
    ])
    func formatsExpiresInUTC(seconds: Double, text: String) throws {
        let time = UTCDateTime(Date(timeIntervalSince1970: seconds))
        #expect(time.authExpiresText == text)
        let parsed = try #require(UTCDateTime(authExpiresText: text))
        #expect(parsed.date.timeIntervalSince1970 == seconds.rounded(.down))
    }

    @Test(arguments: [
        ("2026-05-20T14:03:07Z", true), ("2026-05-20T14:03:07.123Z", true), ("2026/05/20 14:03:07+00:00", true),
        ("2026/05/20 14:03:07+01:00", false), ("2026/02/30 14:03:07+00:00", false), ("2026/05/20 14:03:7+00:00", false),
        ("tomorrow", false), ("", false),
    ])
    func parsesExpiryForms(text: String, valid: Bool) {
        #expect((UTCDateTime(authExpiresText: text) != nil) == valid)
    }
}
