/// Random Assembly Status bodies, well-formed and hostile, for comparing two readings of the same bytes.
///
/// Seeded (SplitMix64), so that a failure names the body it failed on again. Step names never escape to the
/// same text (Foundation's reading merges such steps' lists in hash order, which differs run to run).
struct StatusBodyGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// One status body: an object of status members, or now and then something else.
    mutating func body() -> [UInt8] {
        switch below(40) {
        case 0: return Array("[1,2]".utf8)
        case 1: return Array(#""ASSEMBLY_COMPLETED""#.utf8)
        case 2: return [0xEF, 0xBB, 0xBF] + status()
        case 3: return status() + Array(" x".utf8)
        case 4: return Array(" \n\t".utf8) + status() + Array("\r\n".utf8)
        default: return status()
        }
    }

    /// A body with one byte changed, dropped or added: mostly broken, sometimes still read.
    mutating func mutated(_ body: [UInt8]) -> [UInt8] {
        guard !body.isEmpty else { return body }
        var body = body
        let position = 4 + below(max(1, body.count - 4))
        guard position < body.count else { return body }
        let bytes: [UInt8] = Array(#"{}[],:"\ 0-.e"#.utf8) + [0x01, 0x80, 0xC3, 0xED]
        switch below(3) {
        case 0: body[position] = bytes[below(bytes.count)]
        case 1: body.remove(at: position)
        default: body.insert(bytes[below(bytes.count)], at: position)
        }
        return body
    }

    /// A payload of `assembly_result_finished`: `["step", {result}]`, and variants of it.
    mutating func stepResult() -> String {
        let file = fileObject()
        switch below(8) {
        case 0: return "[\(file)]"
        case 1: return "[1,\(file)]"
        case 2: return #"["resize",\#(file),{"x":1},7]"#
        case 3: return #"{"step":"resize"}"#
        case 4: return "[\(string()),\(anyValue(depth: 2))]"
        default: return "[\(string()),\(file)\(below(4) == 0 ? "," : "")]"
        }
    }

    private mutating func status() -> [UInt8] {
        var members: [(String, String)] = []
        let scalars = ["ok", "error", "message", "reason", "assembly_id", "assembly_url", "assembly_ssl_url", "tus_url",
                       "update_stream_url", "websocket_url", "parent_id"]
        for key in scalars where below(3) > 0 { members.append((key, textValue())) }
        for key in ["expected_tus_uploads", "finished_tus_uploads"] where below(2) == 0 { members.append((key, integerValue())) }
        for key in ["bytes_usage", "queue_duration", "execution_duration"] where below(2) == 0 { members.append((key, numberValue())) }
        if below(2) == 0 { members.append(("retryable", boolValue())) }
        if below(2) == 0 { members.append(("original_id", originalID())) }
        if below(2) == 0 { members.append(("info", object([("retryIn", numberValue())] + unknownMembers())) )}
        if below(3) == 0 { members.append(("parent_assembly_status", object([("assembly_id", textValue())] + unknownMembers()))) }
        if below(4) > 0 { members.append(("uploads", list(of: 6))) }
        if below(4) > 0 { members.append(("results", results())) }
        if below(3) == 0 { members.append(("tus_uploads", tusUploads())) }
        members += unknownMembers()
        if below(6) == 0 { members.append(("deep", nested(depth: [100, 510, 511, 512, 600][below(5)]))) }
        if below(4) == 0, let repeated = members.randomElement(using: &self) { members.append((repeated.0, anyValue(depth: 2))) }
        members.shuffle(using: &self)
        if below(8) == 0 { members.append((["\\ud800", "ok\\u12G4", "\u{7}"][below(3)], "1")) }
        return Self.raw(object(members))
    }

    /// The UTF-8 of `text`, with the private-use characters U+E000 to U+E003 standing for bytes that are not UTF-8:
    /// a lone 0xFF, an overlong NUL, an encoded surrogate, a lead byte without its continuation.
    private static func raw(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xE000: bytes.append(0xFF)
            case 0xE001: bytes += [0xC0, 0x80]
            case 0xE002: bytes += [0xED, 0xA0, 0x80]
            case 0xE003: bytes.append(0xC3)
            default: bytes += Array(String(scalar).utf8)
            }
        }
        return bytes
    }

    private mutating func results() -> String {
        var names = ["resize", "thumb", "r\u{E9}sum\u{E9}", "re\u{301}sume\u{301}", "\u{1F4F7}", "a\\nb", "\\u0072esize", "step\u{202E}x"]
        names.shuffle(using: &self)
        let steps = names.prefix(below(4)).map { ("\"\($0)\"", below(6) == 0 ? anyValue(depth: 1) : list(of: 4)) }
        switch below(10) {
        case 0: return anyValue(depth: 2)
        case 1: return object(steps.map { (String($0.0.dropFirst().dropLast()), $0.1) } + [("\\udc00", "[]")])
        default: return object(steps.map { (String($0.0.dropFirst().dropLast()), $0.1) })
        }
    }

    private mutating func list(of most: Int) -> String {
        guard below(8) > 0 else { return anyValue(depth: 1) }
        let entries = (0..<below(most + 1)).map { _ in below(5) == 0 ? anyValue(depth: 1) : fileObject() }
        return "[" + entries.joined(separator: separator()) + (below(8) == 0 && !entries.isEmpty ? ",]" : "]")
    }

    private mutating func fileObject() -> String {
        var members: [(String, String)] = []
        for key in ["id", "name", "ext", "mime", "field", "md5hash", "url", "ssl_url", "import_url", "original_path"] where below(2) == 0 {
            members.append((key, textValue()))
        }
        if below(2) == 0 { members.append(("size", integerValue())) }
        if below(3) == 0 { members.append(("is_temp_url", boolValue())) }
        if below(2) == 0 { members.append(("original_id", originalID())) }
        if below(2) == 0 {
            members.append(("meta", object([("width", integerValue()), ("height", integerValue()), ("import_url", textValue())]
                .filter { _ in below(3) > 0 } + unknownMembers())))
        }
        members += unknownMembers()
        if below(5) == 0, let repeated = members.randomElement(using: &self) { members.append((repeated.0, anyValue(depth: 1))) }
        members.shuffle(using: &self)
        if below(12) == 0 { members.append((["\\ud83d", "id\\x"][below(2)], "0")) }
        if below(12) == 0, let first = members.first { members[0] = ("\\u00" + String(first.0.utf8.first!, radix: 16) + first.0.dropFirst(), first.1) }
        return object(members)
    }

    private mutating func tusUploads() -> String {
        guard below(6) > 0 else { return anyValue(depth: 1) }
        let entries = (0..<below(4)).map { _ in
            below(4) == 0 ? anyValue(depth: 1)
                : object([("fieldname", textValue()), ("filename", textValue()), ("size", integerValue()), ("finished", boolValue()),
                          ("upload_url", textValue())].filter { _ in below(3) > 0 } + unknownMembers())
        }
        return "[" + entries.joined(separator: ",") + "]"
    }

    private mutating func originalID() -> String {
        switch below(6) {
        case 0: return "[" + (0..<below(3)).map { _ in below(4) == 0 ? "null" : string() }.joined(separator: ",") + "]"
        case 1: return anyValue(depth: 1)
        default: return string()
        }
    }

    private mutating func unknownMembers() -> [(String, String)] {
        (0..<below(4)).map { _ in (["queue", "meta2", "bytes_received", "junk\u{E9}", "\\u0041", "x"][below(6)], anyValue(depth: 3)) }
    }

    private mutating func textValue() -> String {
        below(6) == 0 ? anyValue(depth: 1) : string()
    }

    private mutating func boolValue() -> String {
        below(4) == 0 ? anyValue(depth: 1) : (below(2) == 0 ? "true" : "false")
    }

    private mutating func integerValue() -> String {
        let edges = ["12.0", "1e2", "1E2", "-0", "-0.0", "0e5", "1.5", "-1", "1e-400", "100e-2", "9223372036854775807",
                     "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "-9223372036854775808.0",
                     "9007199254740993.5", "9007199254740993.0", "1e18", "1.5e17", "9.3e18", "1e19", "123456789012345678901234567890",
                     "01", "-", "1.", "1e", "1e5e5", "1-2", "1.2.3", "--1", "-01", "1e+5", "1e-5", "\"12\"", "null", "4.9e-324"]
        return below(3) == 0 ? edges[below(edges.count)] : String(below(5_000_000))
    }

    private mutating func numberValue() -> String {
        let edges = ["1e400", "-1e400", "1e-400", "0e-400", "4.9e-324", "1.7976931348623157e308", "2e308", "-0.0", "-1", "0.1",
                     "9.3e18", "9223372036854775807", "12345678901234567890123", "1.", "01", "-", "41", "\"41\"", "null", "true"]
        return below(2) == 0 ? edges[below(edges.count)] : String(Double(below(1_000_000)) / 1000)
    }

    /// A JSON string literal, with escapes, non-ASCII and, now and then, bytes Foundation refuses when it reads them.
    private mutating func string() -> String {
        let pieces = ["ASSEMBLY_COMPLETED", "ASSEMBLY_EXECUTING", "a", "abc123", "\u{E9}", "\\u00e9", "\\ud83d\\ude00", "\\uD83D\\uDE00",
                      "\\n", "\\/", "\\\"", "\\\\", "\\t", "\\u001b[2J", "\u{202E}", "\u{1F4F7}", "e\u{301}", " ", "https://x.test/a",
                      "\\u0000", String(repeating: "m", count: 300)]
        let hostile = ["\\ud83d", "\\ude00", "\\ud83d\\u0041", "\\ud83dx", "\\x", "\\u12G4", "\u{1}", "\t", "\u{E000}", "\u{E001}", "\u{E002}", "\u{E003}"]
        var text = ""
        for _ in 0..<below(4) {
            text += below(10) == 0 ? hostile[below(hostile.count)] : pieces[below(pieces.count)]
        }
        return "\"" + text + "\""
    }

    private mutating func anyValue(depth: Int) -> String {
        switch below(depth > 0 ? 9 : 6) {
        case 0: return "null"
        case 1: return below(2) == 0 ? "true" : "false"
        case 2: return integerValue()
        case 3: return numberValue()
        case 4, 5: return string()
        case 6: return "[" + (0..<below(3)).map { _ in anyValue(depth: depth - 1) }.joined(separator: separator()) + "]"
        case 7: return object((0..<below(3)).map { _ in (["k", "ok", "id", "\u{E9}"][below(4)], anyValue(depth: depth - 1)) })
        default: return "[]"
        }
    }

    private func nested(depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// An object of `members`, whose keys are JSON string contents (escapes allowed), with random spacing.
    private mutating func object(_ members: [(String, String)]) -> String {
        let body = members.map { "\"\($0.0)\"" + (below(6) == 0 ? " : " : ":") + $0.1 }.joined(separator: separator())
        return "{" + body + (below(10) == 0 && !members.isEmpty ? ",}" : "}")
    }

    private mutating func separator() -> String {
        [",", ",", ",", ", ", ",\n  ", "\t,"][below(6)]
    }

    private mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

extension StatusBodyGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
