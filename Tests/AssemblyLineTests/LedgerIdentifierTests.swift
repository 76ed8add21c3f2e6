import AssemblyLine
import Foundation
import TestSupport
import Testing

@Suite struct LedgerIdentifierTests {
    @Test func runIDHasTheDocumentedForm() throws {
        var generator = SplitMix64(seed: 7)
        let date = try #require(UTCDateTime(year: 2026, month: 11, day: 30, hour: 21, minute: 5, second: 1)).date
        let id = RunID.generate(at: date, using: &generator)
        #expect(id.rawValue.hasPrefix("20261130T210501Z-"))
        #expect(id.suffix.count == 6)
        #expect(RunID(id.rawValue) == id)
        #expect(id.timestamp == date)
    }

    @Test func runIDsSortByTime() throws {
        var generator = SplitMix64(seed: 1)
        let times: [Double] = [0, 1, 59, 3600, 86_400 * 40, 86_400 * 400]
        let base = Date(timeIntervalSince1970: 1_796_072_701)
        let ids = times.map { RunID.generate(at: base.addingTimeInterval($0), using: &generator) }
        #expect(ids.sorted() == ids)
        #expect(ids.map(\.rawValue).sorted() == ids.map(\.rawValue))
    }

    @Test(arguments: [
        ("20261130T210501Z-3f9a2c", nil),
        ("20240229T000000Z-000000", nil),
        ("20261130T210501Z-3F9A2C", "lowercase hex"),
        ("20261130T210501Z-3f9a2", "expected YYYYMMDDTHHMMSSZ-xxxxxx"),
        ("20261130T210501Z_3f9a2c", "expected YYYYMMDDTHHMMSSZ-xxxxxx"),
        ("20261130 210501Z-3f9a2c", "not a valid UTC date"),
        ("20230229T000000Z-3f9a2c", "not a valid UTC date"),
        ("20261131T000000Z-3f9a2c", "not a valid UTC date"),
        ("20261130T240000Z-3f9a2c", "not a valid UTC date"),
        ("20261130T210560Z-3f9a2c", "not a valid UTC date"),
        ("latest", "expected YYYYMMDDTHHMMSSZ-xxxxxx"),
        ("", "expected YYYYMMDDTHHMMSSZ-xxxxxx"),
    ] as [(String, String?)])
    func runIDParsing(text: String, problem: String?) {
        do {
            let id = try RunID(parsing: text)
            #expect(problem == nil, "accepted \(text)")
            #expect(id.rawValue == text)
        } catch {
            let message = String(describing: error)
            #expect(problem != nil, "refused \(text): \(message)")
            #expect(message.contains(problem ?? "-"), "\(message)")
            #expect(message.hasPrefix("run ID '\(text)'"))
            #expect(RunID(text) == nil)
        }
    }

    @Test func assemblyIDsAre32LowercaseHexDigits() throws {
        var generator = SplitMix64(seed: 3)
        let ids = (0..<100).map { _ in AssemblyID.generate(using: &generator) }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.rawValue.count == 32)
            #expect(AssemblyID(id.rawValue) == id)
        }
        #expect(AssemblyID.generate().rawValue.count == 32)
    }

    @Test func generatedAssemblyIDsAreVersion4UUIDsWithoutDashes() throws {
        var generator = SplitMix64(seed: 9)
        let ids = (0..<200).map { _ in AssemblyID.generate(using: &generator) } + [AssemblyID.generate()]
        #expect(ids.allSatisfy(isVersion4UUID))
        let id = ids[0].rawValue
        let dashed = [id.prefix(8), id.dropFirst(8).prefix(4), id.dropFirst(12).prefix(4), id.dropFirst(16).prefix(4), id.dropFirst(20)]
            .joined(separator: "-")
        let parsed = try #require(UUID(uuidString: dashed))
        #expect(parsed.uuidString.lowercased() == dashed)
        #expect(!isVersion4UUID(AssemblyID(String(repeating: "0", count: 32))!))
    }

    /// True for a version-4 UUID without dashes: the form of the IDs this client generates.
    private func isVersion4UUID(_ id: AssemblyID) -> Bool {
        let digits = Array(id.rawValue)
        return digits[12] == "4" && "89ab".contains(digits[16])
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 32), String(repeating: "g", count: 32),
                      String(repeating: "a", count: 33)])
    func invalidAssemblyIDsAreRefused(text: String) {
        #expect(AssemblyID(text) == nil)
        #expect(throws: LedgerError.invalidAssemblyID(text, reason: "expected 32 lowercase hex digits")) {
            try AssemblyID(parsing: text)
        }
    }
}
