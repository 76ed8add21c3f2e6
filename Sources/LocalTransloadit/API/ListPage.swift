import AssemblyLine
import ConfigFormat

/// The page a signed listing asks for (`GET /assemblies`, `GET /templates`): `page` from 1 and `pagesize`.
///
/// Both come from the params alone, which the signature covers: the same names in the query are
/// ignored, so nobody can change a signed request's answer.
struct ListPage: Sendable, Hashable {
    /// The most items one page holds.
    static let maxSize = 5_000
    /// The highest page number asked for.
    static let maxNumber = 1_000_000
    static let defaultSize = 50

    /// From 1.
    var number: Int
    var size: Int

    /// The index of the page's first item (`maxNumber` and `maxSize` keep it far from overflow).
    var start: Int { (number - 1) * size }

    /// The page the params ask for, the first of 50 items unless they say otherwise.
    ///
    /// - Throws: `INVALID_PARAMS_FIELD` (400) for a page or size out of range or not a whole number.
    init(params: [String: JSONValue]) throws(APIError) {
        guard let number = Self.whole(params["page"], default: 1), (1...Self.maxNumber).contains(number) else {
            throw .validation(.invalidParamsField, "page must be a whole number from 1 to \(Self.maxNumber).")
        }
        guard let size = Self.whole(params["pagesize"], default: Self.defaultSize), (1...Self.maxSize).contains(size) else {
            throw .validation(.invalidParamsField, "pagesize must be a whole number from 1 to \(Self.maxSize).")
        }
        self.number = number
        self.size = size
    }

    /// A whole number from the params (a number or a numeric string), the default when absent; nil when it is neither.
    private static func whole(_ value: JSONValue?, default fallback: Int) -> Int? {
        switch value {
        case .integer(let number)?: return Int(exactly: number)
        case .string(let text)?: return Int(text)
        case nil, .null?: return fallback
        default: return nil
        }
    }
}
