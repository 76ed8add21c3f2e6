import ConfigFormat
import Testing

/// An object written with one member's array streamed is the text its whole value serializes to.
@Suite struct JSONStreamingTests {
    @Test(arguments: [0, 1, 3, 2_000])
    func aStreamedObjectIsTheCanonicalText(count: Int) async {
        let members: [String: JSONValue] = ["zeta": .integer(1), "alpha": .string("a \"quoted\"\nline"),
                                            "files_by_state": .object(["done": .integer(Int64(count))]), "failures": .array([])]
        let elements = (0..<count).map { JSONValue.object(["index": .integer(Int64($0)), "path": .string("/in/caf\u{E9} \($0).jpg")]) }
        var pieces: [String] = []

        await JSONValue.writeObject(members, streaming: "files", chunk: 512, to: { pieces.append($0) }) { emit in
            // Emitted in pages of 7, as a report reads its files.
            for page in stride(from: 0, to: elements.count, by: 7) { await Task.yield(); elements[page..<min(page + 7, elements.count)].forEach { element in emit { element.write(to: &$0) } } }
        }

        var whole = members
        whole["files"] = .array(elements)
        #expect(pieces.joined() == JSONValue.object(whole).serialized)
        #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= 512 }, "written in pieces of about the chunk, the last the rest")
        #expect(count < 100 || pieces.count > 10, "a long array is never one piece: \(pieces.count)")
    }
}
