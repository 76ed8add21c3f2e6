@testable import ConfigFormat
import Testing

@Suite struct ConfigUnitsTests {
    @Test(arguments: [
        ("512KiB", Int64(524_288)), ("2GiB", 2_147_483_648), ("10MB", 10_000_000), ("1.5KiB", 1_536),
        ("4096", 4_096), ("0", 0), ("1TiB", 1_099_511_627_776), ("7B", 7),
    ])
    func sizesParseWithUnits(text: String, bytes: Int64) {
        #expect(ConfigUnits.parseSize(text) == bytes)
    }

    @Test(arguments: ["", "KiB", "-1", "12XB", "1.3B", "ten MiB", "99999999999TiB"])
    func malformedSizesAreRejected(text: String) {
        #expect(ConfigUnits.parseSize(text) == nil)
    }

    @Test(arguments: [
        ("500ms", Int64(500)), ("90s", 90_000), ("5m", 300_000), ("1h", 3_600_000), ("1h30m", 5_400_000),
        ("2d", 172_800_000), ("1m500ms", 60_500),
    ])
    func durationsParseWithUnits(text: String, milliseconds: Int64) {
        #expect(ConfigUnits.parseDuration(text)?.milliseconds == milliseconds)
    }

    @Test(arguments: ["", "5", "1.5h", "h", "10x", "-3s", "1h 30m"])
    func malformedDurationsAreRejected(text: String) {
        #expect(ConfigUnits.parseDuration(text) == nil)
    }

    @Test func formatsRoundTrip() {
        #expect(ConfigUnits.formatDuration(.milliseconds(5_400_000)) == "1h30m")
        #expect(ConfigUnits.formatDuration(.milliseconds(90_000)) == "1m30s")
        #expect(ConfigUnits.formatDuration(.milliseconds(500)) == "500ms")
        #expect(ConfigUnits.formatSize(8 << 20) == "8MiB")
        #expect(ConfigUnits.formatSize(1_000) == "1000B")
    }

    @Test func environmentExpansion() throws {
        let expander = EnvironmentExpander(environment: ["A": "x", "B_2": "y"])
        #expect(try expander.expand("${A}-${B_2}") == "x-y")
        #expect(try expander.expand("cost: $5, $${A}") == "cost: $5, ${A}")
        #expect(throws: EnvironmentExpander.Failure.unset("C")) { try expander.expand("${C}") }
        #expect(throws: EnvironmentExpander.Failure.malformed) { try expander.expand("${A") }
        #expect(throws: EnvironmentExpander.Failure.malformed) { try expander.expand("${1A}") }
    }
}
