/// One name and value from a form: a urlencoded pair, a multipart field, or a query item.
public struct FormField: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }
}

extension Array where Element == FormField {
    /// The value of the first field called `name`, or nil when there is none.
    public func firstValue(named name: String) -> String? {
        first { $0.name == name }?.value
    }

    /// The values of every field called `name`, in order.
    public func values(named name: String) -> [String] {
        filter { $0.name == name }.map(\.value)
    }
}
