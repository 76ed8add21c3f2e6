@testable import AssemblyLine
import Testing

@Suite struct OutputLayoutTests {
    @Test func outputLayoutRendersAndStaysInside() throws {
        let layout = try OutputLayout("{run}/{step}/{relpath}.{ext}")
        let thumb: [OutputLayout.Placeholder: String] = [.run: "R1", .step: "thumb", .relpath: "a/b/cat", .ext: "jpg"]
        #expect(layout.render { thumb[$0] ?? "" } == "R1/thumb/a/b/cat.jpg")
        let climbing: [OutputLayout.Placeholder: String] = [.run: "R1", .step: "..", .relpath: "../../etc/passwd", .ext: "jpg"]
        #expect(layout.render { climbing[$0] ?? "" } == "R1/etc/passwd.jpg")
        #expect(throws: OutputLayout.Failure.absolute) { try OutputLayout("/abs/{relpath}") }
        #expect(throws: OutputLayout.Failure.climbs) { try OutputLayout("../{relpath}") }
        #expect(throws: OutputLayout.Failure.unclosedBrace) { try OutputLayout("{relpath") }
    }
}
