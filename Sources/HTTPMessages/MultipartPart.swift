/// The headers of one part of a multipart/form-data body: its field name, file name and content type.
package struct MultipartPart: Sendable, Hashable {
    /// The part's position in the body, from 1.
    package var index: Int
    /// The form field name (`Content-Disposition: form-data; name="..."`).
    package var name: String
    /// The file name when the part is a file (`filename="..."`, possibly empty), nil for a plain field.
    package var filename: String?
    /// The part's `Content-Type`, when sent.
    package var contentType: String?
    /// Every header of the part, names lowercased, in order.
    package var headers: [FormField]

    package init(index: Int, name: String, filename: String?, contentType: String?, headers: [FormField]) {
        self.index = index
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
    }

    /// True when the part carries a file (it has a `filename` parameter, RFC 7578 §4.2).
    package var isFile: Bool { filename != nil }

    /// Parses a part's header block (the lines between the boundary line and the empty line).
    static func parse(headerBlock: ArraySlice<UInt8>, index: Int) throws(FormDataError) -> MultipartPart {
        var headers: [FormField] = []
        let text = String(decoding: headerBlock, as: UTF8.self)
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":"),
                  let first = line.first, first != " ", first != "\t" else {
                throw .malformedHeader(part: index, line: String(line))
            }
            let name = line[..<colon].lowercased()
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw .malformedHeader(part: index, line: String(line))
            }
            headers.append(FormField(name: name, value: String(line[line.index(after: colon)...]).trimmingWhitespace()))
        }
        guard let disposition = headers.firstValue(named: "content-disposition"),
              let parsed = HeaderParameters(parsing: disposition),
              parsed.value.lowercased() == "form-data",
              let name = parsed.parameter("name") else {
            throw .missingDisposition(part: index)
        }
        return MultipartPart(
            index: index, name: name, filename: parsed.parameter("filename"),
            contentType: headers.firstValue(named: "content-type"), headers: headers)
    }
}
