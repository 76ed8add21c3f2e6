/// One element of a small XML document: its name, its text, its child elements; attributes are read and dropped.
///
/// S3's answers carry their data in elements only (the `xmlns` attribute is the one attribute they have).
package struct XMLElementNode: Sendable, Hashable {
    package var name: String
    /// The element's own character data, entities decoded (the text between its children, joined).
    package var text: String
    package var children: [XMLElementNode]

    package init(name: String, text: String = "", children: [XMLElementNode] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named `name`.
    package func child(_ name: String) -> XMLElementNode? {
        children.first { $0.name == name }
    }

    /// Every child named `name`, in order.
    package func children(_ name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }
}
