import Foundation

/// Strictly typed JSON for the tests' own parsing (a boolean is never a number and vice versa).
enum TestJSON: Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TestJSON])
    case object([String: TestJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TestJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: TestJSON].self))
        }
    }

    static func parse(_ data: Data) -> TestJSON? { try? JSONDecoder().decode(TestJSON.self, from: data) }

    subscript(key: String) -> TestJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> TestJSON? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self { Int(exactly: value) } else { nil } }
    var array: [TestJSON]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: TestJSON]? { if case .object(let value) = self { value } else { nil } }
}
