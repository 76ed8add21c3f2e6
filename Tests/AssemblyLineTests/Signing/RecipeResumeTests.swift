import AssemblyLine
import ConfigFormat
import Testing

/// Which recipe changes a `resume` goes on under (``Recipe/resumes(fingerprint:templateID:)``): an edit of the Template's
/// file alone, for the run of that same account Template with the same fields; nothing else.
@Suite struct RecipeResumeTests {
    static func steps(width: Int) -> JSONValue {
        .object(["thumb": .object(["robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(Int64(width))])])
    }

    static func template(id: String? = "tpl", width: Int, fields: [String: JSONValue] = [:], file: Bool = true) -> Recipe {
        let document = TemplateDocument(name: "thumbs", content: ["steps": steps(width: width)])
        return .template(TemplateRecipe(id: id, file: file ? TemplateFile(path: "/t.json", displayPath: "t.json", document: document) : nil,
                                        fields: fields))
    }

    @Test func anEditOfTheTemplatesFileAloneResumes() {
        let before = Self.template(width: 40)
        #expect(Self.template(width: 24).resumes(fingerprint: before.fingerprint, templateID: "tpl"))
        #expect(before.resumes(fingerprint: before.fingerprint, templateID: nil), "the same recipe always")
    }

    @Test func everyOtherChangeIsRefused() {
        let before = Self.template(width: 40)
        #expect(!Self.template(width: 24).resumes(fingerprint: before.fingerprint, templateID: nil), "a run before version 15 kept no ID")
        #expect(!Self.template(width: 24).resumes(fingerprint: before.fingerprint, templateID: "other"), "another Template")
        #expect(!Self.template(width: 24, fields: ["size": .integer(1)]).resumes(fingerprint: before.fingerprint, templateID: "tpl"),
                "other fields")
        #expect(!Self.template(id: nil, width: 24).resumes(fingerprint: before.fingerprint, templateID: "tpl"), "a file with no account ID")
        #expect(!Recipe.steps(Self.steps(width: 24)).resumes(fingerprint: before.fingerprint, templateID: "tpl"), "steps")
        #expect(!Self.template(width: 24).resumes(fingerprint: Recipe.template(id: "tpl", fields: [:]).fingerprint, templateID: "tpl"),
                "a run of the Template by its ID alone")
    }
}
