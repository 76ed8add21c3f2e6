import AssemblyLine
import ConfigFormat

/// A ``JSONValue`` inside a `Codable` record, written as the JSON it is (not as a string).
///
/// The service persists each Assembly as one JSON file through `JSONEncoder`; the parts that are
/// free-form (merged params, fields, user metadata) travel in this wrapper.
struct StoredJSON: Codable, Sendable, Hashable {
    var value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd {
                items.append(try array.decode(StoredJSON.self).value)
            }
            value = .array(items)
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(StoredJSON.self, forKey: key).value
            }
            value = .object(members)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let integer = try? single.decode(Int64.self) {
                value = .integer(integer)
            } else if let number = try? single.decode(Double.self) {
                value = .number(number)
            } else {
                value = .string(try single.decode(String.self))
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items {
                try array.encode(StoredJSON(item))
            }
        case .object(let members):
            var object = encoder.container(keyedBy: Key.self)
            for (key, member) in members {
                try object.encode(StoredJSON(member), forKey: Key(stringValue: key))
            }
        }
    }
}
