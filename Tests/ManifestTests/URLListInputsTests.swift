@testable import AssemblyLine
import Testing

/// `inputs.urls`: the rows of a list of URLs as the inputs, and every mistake in the section named where it is.
@Suite struct URLListInputsTests {
    static func manifest(_ urls: String, extra: String = "") -> String {
        """
        version: 1
        name: thumbs
        inputs:
          urls: {\(urls)}\(extra)
        resize: {width: 100}

        """
    }

    @Test func aListIsReadAgainstTheManifestsDirectoryAndTakesEveryRow() throws {
        let manifest = try decodeManifest(Self.manifest("file: lists/tonight.csv"))
        #expect(manifest.inputs.urlList == URLListSettings(file: "/jobs/lists/tonight.csv", format: nil))
        #expect(manifest.inputs.include.isEmpty)
        #expect(manifest.inputs.base == "/")
        #expect(manifest.inputs.urlList?.importStep == ImportStep(robot: .http, credentials: nil, host: nil, bucket: nil))
        #expect(manifest.inputsKey.contains(#""urls":"/jobs/lists/tonight.csv""#))
    }

    @Test func globsMatchTheOutputNamesBelowAVirtualRoot() throws {
        let manifest = try decodeManifest(Self.manifest("file: /srv/urls, format: text", extra: "\n  include: \"media/**/*.jpg\"\n  exclude: drafts"))
        #expect(manifest.inputs.urlList == URLListSettings(file: "/srv/urls", format: .text))
        #expect(manifest.inputs.include.map(\.description) == ["/media/**/*.jpg"])
        #expect(manifest.inputs.exclude.map(\.description) == ["/drafts"])
    }

    static let mistakes: [(String, String, String)] = [
        ("file: lists/tonight.xlsx", "",
         "m.yaml:4:16: inputs.urls.file: expected a list named .txt, .list, .csv, .jsonl or .ndjson, or inputs.urls.format (text, csv or jsonl), found 'lists/tonight.xlsx'"),
        ("file: lists/tonight.csv, format: xml", "",
         "m.yaml:4:43: inputs.urls.format: expected one of text, csv, jsonl, found 'xml'"),
        ("format: csv", "", "m.yaml:4:9: inputs.urls.file: missing; expected the path of the list of URLs (.txt, .csv or .jsonl)"),
        ("file: lists/tonight.csv", "\n  base: in", "m.yaml:5:9: inputs.base: not used with inputs.urls: relative paths are the rows' output names"),
        ("file: lists/tonight.csv", "\n  include: []", "m.yaml:5:12: inputs.include: expected at least one glob, found an empty list"),
        ("file: lists/tonight.csv", "\n  s3: {bucket: media}",
         "m.yaml:5:7: inputs.s3: not used with inputs.urls: a night reads one list or one bucket"),
    ]

    @Test(arguments: mistakes) func aMistakeIsNamedWhereItIs(_ urls: String, _ extra: String, _ issue: String) throws {
        let issues = try manifestIssues(Self.manifest(urls, extra: extra))
        #expect(issues == [issue], "\(issues)")
    }
}
