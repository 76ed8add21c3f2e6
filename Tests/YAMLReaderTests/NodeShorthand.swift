import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import YAMLReader

/// Short constructors for expected trees: every node with its line and column.
enum Node {
    static func plain(_ text: String, _ line: Int, _ column: Int) -> ConfigNode {
        ConfigNode(.scalar(text, quoted: false), at: SourceMark(line: line, column: column))
    }

    static func quoted(_ text: String, _ line: Int, _ column: Int) -> ConfigNode {
        ConfigNode(.scalar(text, quoted: true), at: SourceMark(line: line, column: column))
    }

    static func sequence(_ line: Int, _ column: Int, _ items: [ConfigNode]) -> ConfigNode {
        ConfigNode(.sequence(items), at: SourceMark(line: line, column: column))
    }

    static func mapping(_ line: Int, _ column: Int, _ entries: [(ConfigNode, ConfigNode)]) -> ConfigNode {
        ConfigNode(.mapping(entries.map { ConfigNode.Entry(key: $0.0, value: $0.1) }), at: SourceMark(line: line, column: column))
    }

    /// The value under the plain key `key` of a mapping node, or nil.
    static func value(_ key: String, in node: ConfigNode) -> ConfigNode? {
        guard case .mapping(let entries) = node.content else { return nil }
        return entries.first { $0.key.content == .scalar(key, quoted: false) }?.value
    }

    /// The keys of a mapping node, in order.
    static func keys(of node: ConfigNode) -> [String] {
        guard case .mapping(let entries) = node.content else { return [] }
        return entries.compactMap { entry in
            if case .scalar(let text, _) = entry.key.content { return text }
            return nil
        }
    }
}

/// Parses `text` as `test.yaml` and returns the error it must raise.
func parseError(_ text: String) -> YAMLError? {
    do {
        _ = try YAMLReader.parse(text, file: "test.yaml")
        return nil
    } catch {
        return error
    }
}

/// A fresh directory under the system's temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try TemporaryDirectory()
    return try body(directory.url)
}
