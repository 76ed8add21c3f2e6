/// One name and value from a form: a urlencoded pair, a multipart field, or a query item.
package struct FormField: Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    package var description: String { "\(name)=\(value)" }
}

extension Array where Element == FormField {
    /// The value of the first field called `name`, or nil when there is none.
    package func firstValue(named name: String) -> String? {
        first { $0.name == name }?.value
    }

    /// The values of every field called `name`, in order.
    package func values(named name: String) -> [String] {
        filter { $0.name == name }.map(\.value)
    }
}
