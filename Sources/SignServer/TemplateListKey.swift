import ConfigFormat

/// A key of a Template list's params (`GET /templates`), with the form of value the API takes for it.
enum TemplateListKey: String, Sendable, Hashable, CaseIterable {
    case page, pagesize, sort, order, keywords, fromdate, todate

    /// The largest `pagesize` the API takes.
    static let maxPageSize: Int64 = 5000

    /// What the value must be, as a refusal says it.
    var expected: String {
        switch self {
        case .page: "a whole number from 1"
        case .pagesize: "a whole number from 1 to \(Self.maxPageSize)"
        case .sort, .fromdate, .todate: "a string"
        case .order: "asc or desc"
        case .keywords: "a list of strings"
        }
    }

    /// True when `value` has the key's form.
    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case let (.page, .integer(page)): page >= 1
        case let (.pagesize, .integer(size)): (1...Self.maxPageSize).contains(size)
        case (.sort, .string), (.fromdate, .string), (.todate, .string): true
        case let (.order, .string(order)): order == "asc" || order == "desc"
        case let (.keywords, .array(words)): words.allSatisfy { $0.stringValue != nil }
        default: false
        }
    }
}
