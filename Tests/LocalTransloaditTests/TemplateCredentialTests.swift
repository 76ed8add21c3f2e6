import AssemblyLine
import ConfigFormat
@testable import LocalTransloadit
import Testing
import YAMLReader

/// Template Credentials as a file gives them: every field checked and named, the secret never shown.
@Suite struct TemplateCredentialTests {
    static func decode(_ text: String) throws -> [String: TemplateCredential] {
        try TemplateCredential.decodeAll(try YAMLReader.parse(text, file: "credentials.json"), file: "credentials.json")
    }

    @Test func aFileOfOneBucketIsRead() throws {
        let credentials = try Self.decode("""
            {"night_bucket": {"type": "s3", "endpoint": "http://127.0.0.1:9000", "region": "eu-west-1",
                              "bucket": "night-media", "key": "AKIDNIGHT", "secret": "top-secret-value"}}
            """)
        let night = try #require(credentials["night_bucket"])
        #expect(night.bucket.description == "http://127.0.0.1:9000/night-media")
        #expect(night.bucket.region == "eu-west-1" && night.keys.accessKeyID == "AKIDNIGHT")
        for text in [String(describing: night), String(reflecting: night), String(describing: credentials)] {
            #expect(!text.contains("top-secret-value"), "\(text)")
        }
    }

    @Test func eachWrongFieldIsNamedWithItsPlaceAndNoIssueQuotesTheSecret() throws {
        let text = """
            {"a": {"type": "gcs", "endpoint": "ftp://h", "region": "eu west", "bucket": "No_Such", "key": "k", "secret": "top-secret-value"},
             "b": {"type": "s3", "endpoint": "https://h", "region": "r", "bucket": "bbb", "key": "k", "secret": "top-secret-value", "extra": 1},
             "c": {"type": "s3", "endpoint": "https://h", "region": "r", "bucket": "ccc", "key": "k"}}
            """
        do {
            _ = try Self.decode(text)
            Issue.record("a wrong file was read")
        } catch let error as ConfigError {
            let fields = Set(error.issues.map(\.field))
            #expect(fields == ["a.type", "a.endpoint", "a.region", "a.bucket", "b.extra", "c.secret"], "\(error)")
            #expect(error.issues.allSatisfy { $0.mark.line >= 1 && $0.mark.column >= 1 && $0.file == "credentials.json" })
            #expect(!error.description.contains("top-secret-value"))
        }
    }
}
