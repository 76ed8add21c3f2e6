import AssemblyLine
import Foundation
import TestSupport
import Testing

@Suite struct SecretReaderTests {
    static let value = "s3cr3t-value"

    @Test(arguments: [(value, value), (value + "\n", value), (value + "\r\n", value), (value + "\n\n", value + "\n"), (" x ", " x ")])
    func trimsOneTrailingNewline(raw: String, expected: String) throws {
        #expect(try SecretReader(environment: ["S": raw]).read(.environment("S")) == expected)
    }

    @Test func readsAPrivateFile() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("secret", Array((Self.value + "\n").utf8))
        chmod(path, 0o600)
        #expect(try SecretReader(environment: [:]).read(.file(path)) == Self.value)
        chmod(path, 0o400)
        #expect(try SecretReader(environment: [:]).read(.file(path)) == Self.value)
    }

    @Test func refusesAFileOthersCanRead() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("secret", Array(Self.value.utf8))
        chmod(path, 0o644)
        #expect(throws: SecretError.tooOpen(path: path, mode: 0o644)) { try SecretReader(environment: [:]).read(.file(path)) }
        chmod(path, 0o640)
        #expect(throws: SecretError.tooOpen(path: path, mode: 0o640)) { try SecretReader(environment: [:]).read(.file(path)) }
    }

    @Test func refusesWhatHoldsNoSecret() throws {
        let scratch = try TemporaryDirectory()
        let empty = try scratch.write("empty", Array("\n".utf8))
        chmod(empty, 0o600)
        let reader = SecretReader(environment: ["EMPTY": ""])
        #expect(throws: SecretError.unset(variable: "MISSING")) { try reader.read(.environment("MISSING")) }
        #expect(throws: SecretError.empty(.environment("EMPTY"))) { try reader.read(.environment("EMPTY")) }
        #expect(throws: SecretError.empty(.file(empty))) { try reader.read(.file(empty)) }
        #expect(throws: SecretError.notRegularFile(path: scratch.path)) { try reader.read(.file(scratch.path)) }
        #expect(throws: SecretError.self) { try reader.read(.file(scratch.path + "/none")) }
    }

    @Test func messagesNameTheSourceNeverTheValue() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("secret", Array(Self.value.utf8))
        chmod(path, 0o666)
        do {
            _ = try SecretReader(environment: [:]).read(.file(path))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.description.contains(path))
            #expect(error.description.contains("chmod 600"))
            #expect(!error.description.contains(Self.value))
        }
        #expect(SecretError.empty(.environment("TOKEN")).description == "secret: environment variable TOKEN is empty; expected the secret or token")
    }
}
