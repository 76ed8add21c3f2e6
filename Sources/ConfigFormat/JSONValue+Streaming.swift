extension JSONValue {
    /// Writes an object canonically, as ``serialized`` would, with the member `key` an array whose elements
    /// are written one at a time as `produce` emits them (it may read them page by page): a report of a
    /// million files never holds the array, nor the whole text. Each element emitted writes its own canonical
    /// text into the text it is given, so that a million small objects need not be built as values first.
    /// `write` gets the text in pieces of about `chunk` bytes.
    package static func writeObject(_ members: [String: JSONValue], streaming key: String, chunk: Int = 1 << 16,
                                    to write: @escaping (String) -> Void,
                                    elements produce: ((_ element: (inout String) -> Void) -> Void) async throws -> Void) async rethrows {
        var output = "{"
        func flush(when full: Bool) {
            guard !full || output.utf8.count >= chunk else { return }
            write(output)
            output = ""
        }
        for (index, name) in (Array(members.keys.filter { $0 != key }) + [key]).sorted().enumerated() {
            if index > 0 { output += "," }
            writeString(name, to: &output)
            output += ":"
            guard name == key else {
                members[name]?.write(to: &output)
                continue
            }
            output += "["
            var first = true
            try await produce { element in
                if !first { output += "," }
                first = false
                element(&output)
                flush(when: true)
            }
            output += "]"
        }
        output += "}"
        flush(when: false)
    }
}
