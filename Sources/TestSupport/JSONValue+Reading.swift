package import ConfigFormat

extension JSONValue {
    /// The elements of an array, or nil for any other value.
    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The value of a whole number, or nil for any other value.
    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
