@testable import AssemblyLine
import ConfigFormat
import Testing

@Suite struct AssemblyInstructionsTests {
    @Test func resizeBecomesUploadHandleAndImageResize() {
        let settings = ResizeSettings(width: 320, height: 240, strategy: .pad, format: .png, quality: 80, background: "#000000", zoom: false)
        #expect(AssemblyInstructions(.resize(settings)).members == [
            "steps": .object([
                ":original": .object(["robot": .string("/upload/handle")]),
                "resize": .object([
                    "robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(320), "height": .integer(240),
                    "resize_strategy": .string("pad"), "format": .string("png"), "quality": .integer(80),
                    "background": .string("#000000"), "zoom": .bool(false), "result": .bool(true),
                ]),
            ]),
        ])
    }

    @Test func stepsAreSentAsGiven() {
        let steps = JSONValue.object(["thumb": .object(["robot": .string("/image/resize"), "width": .integer(10)])])
        #expect(AssemblyInstructions(.steps(steps)).members == ["steps": steps])
    }

    @Test func templateCarriesItsFieldsOnlyWhenThereAreSome() {
        #expect(AssemblyInstructions(.template(id: "abc", fields: [:])).members == ["template_id": .string("abc")])
        #expect(AssemblyInstructions(.template(id: "abc", fields: ["x": .integer(1)])).members
            == ["template_id": .string("abc"), "fields": .object(["x": .integer(1)])])
    }

    @Test func fingerprintIsCanonicalAndChangesWithTheRecipe() {
        let a = Recipe.template(id: "abc", fields: ["b": .integer(2), "a": .string("x")])
        let b = Recipe.template(id: "abc", fields: ["a": .string("x"), "b": .integer(2)])
        #expect(a.fingerprint == #"{"fields":{"a":"x","b":2},"template_id":"abc"}"#)
        #expect(a.fingerprint == b.fingerprint)
        #expect(Recipe.template(id: "abc", fields: ["a": .string("y"), "b": .integer(2)]).fingerprint != a.fingerprint)
        let small = ResizeSettings(width: 100, height: 100, strategy: .fit, format: nil, quality: nil, background: nil, zoom: true)
        var large = small
        large.width = 200
        #expect(Recipe.resize(small).fingerprint != Recipe.resize(large).fingerprint)
        #expect(Recipe.resize(small).fingerprint == Recipe.steps(small.steps).fingerprint)
    }
}
