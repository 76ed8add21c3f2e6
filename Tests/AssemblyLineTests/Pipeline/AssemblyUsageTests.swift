import AssemblyLine
import Testing

/// `bytes_usage`, `queue_duration` and `execution_duration` as a status gives them: a lying or odd value is unknown, never a figure.
@Suite struct AssemblyUsageTests {
    static func usage(_ members: String) throws -> AssemblyUsage {
        try #require(AssemblyStatus.decode(Array(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"a",\#(members)}"#.utf8))).usage
    }

    @Test func theFiguresAreReadWhenTheServiceGivesThem() throws {
        #expect(try Self.usage(#""bytes_usage":123456,"queue_duration":0.25,"execution_duration":1.399"#)
            == AssemblyUsage(bytes: 123_456, queueSeconds: 0.25, executionSeconds: 1.399))
        #expect(try Self.usage(#""bytes_usage":0,"queue_duration":0,"execution_duration":0"#)
            == AssemblyUsage(bytes: 0, queueSeconds: 0, executionSeconds: 0))
        #expect(try Self.usage(#""bytes_usage":1.6e3"#).bytes == 1_600)
    }

    @Test func absentNullNegativeTextAndHugeValuesAreUnknown() throws {
        #expect(try Self.usage(#""message":"done""#) == .unknown)
        #expect(try Self.usage(#""bytes_usage":null,"queue_duration":null,"execution_duration":null"#) == .unknown)
        #expect(try Self.usage(#""bytes_usage":-5,"queue_duration":-0.1,"execution_duration":-3"#) == .unknown)
        #expect(try Self.usage(#""bytes_usage":"12","queue_duration":"0.5","execution_duration":true"#) == .unknown)
        #expect(try Self.usage(#""bytes_usage":1e300,"execution_duration":1e400"#) == .unknown)
        #expect(try Self.usage(#""bytes_usage":{"total":5},"queue_duration":[1]"#) == .unknown)
    }
}

/// The expected usage of a run: its bytes at the ratio past runs cost; none without a basis or with no input bytes in it.
@Suite struct UsageForecastArithmeticTests {
    @Test func theBytesToSendAtThePastRatioRoundedUp() {
        let basis = UsageForecast.Basis(runs: 3, usageBytes: 3_000, inputBytes: 2_000)
        #expect(UsageForecast(bytesToSend: 1_001, basis: basis).expectedUsage == 1_502)
        #expect(UsageForecast(bytesToSend: 0, basis: basis).expectedUsage == 0)
        #expect(UsageForecast(bytesToSend: 1_000, basis: nil).expectedUsage == nil)
        #expect(UsageForecast(bytesToSend: 1_000, basis: UsageForecast.Basis(runs: 1, usageBytes: 5, inputBytes: 0)).basis == nil)
    }
}
