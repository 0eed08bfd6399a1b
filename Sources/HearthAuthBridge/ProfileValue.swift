import Foundation

/// A JSON value of `AdditionalUserInfo.profile`, walked by the C++ side to build its `Variant`s.
final class ProfileValue: @unchecked Sendable {
    enum Kind: Int32 {
        case null = 0
        case bool
        case integer
        case double
        case string
        case array
        case object
    }

    let kind: Kind
    var bool = false
    var integer: Int64 = 0
    var double = 0.0
    var string = ""
    var keys: [String] = []
    var children: [ProfileValue] = []

    init(kind: Kind) { self.kind = kind }

    convenience init(json: Any) {
        switch json {
        case let flag as Bool where type(of: json) == Bool.self:
            self.init(kind: .bool)
            bool = flag
        case let text as String:
            self.init(kind: .string)
            string = text
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B":
                self.init(kind: .bool)
                bool = number.boolValue
            case "d", "f":
                self.init(kind: .double)
                double = number.doubleValue
            default:
                self.init(kind: .integer)
                integer = number.int64Value
            }
        case let array as [Any]:
            self.init(kind: .array)
            children = array.map { ProfileValue(json: $0) }
        case let object as [String: Any]:
            self.init(kind: .object)
            keys = object.keys.sorted()
            children = keys.map { ProfileValue(json: object[$0]!) }
        default:
            self.init(kind: .null)
        }
    }
}

@_cdecl("hearth_value_type")
public func hearthValueType(_ value: UnsafeMutableRawPointer) -> Int32 {
    Handle.object(value, as: ProfileValue.self).kind.rawValue
}

@_cdecl("hearth_value_bool")
public func hearthValueBool(_ value: UnsafeMutableRawPointer) -> Int32 {
    Handle.object(value, as: ProfileValue.self).bool ? 1 : 0
}

@_cdecl("hearth_value_int")
public func hearthValueInt(_ value: UnsafeMutableRawPointer) -> Int64 {
    Handle.object(value, as: ProfileValue.self).integer
}

@_cdecl("hearth_value_double")
public func hearthValueDouble(_ value: UnsafeMutableRawPointer) -> Double {
    Handle.object(value, as: ProfileValue.self).double
}

@_cdecl("hearth_value_string")
public func hearthValueString(_ value: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    cString(Handle.object(value, as: ProfileValue.self).string)
}

@_cdecl("hearth_value_count")
public func hearthValueCount(_ value: UnsafeMutableRawPointer) -> Int {
    Handle.object(value, as: ProfileValue.self).children.count
}

@_cdecl("hearth_value_key")
public func hearthValueKey(_ value: UnsafeMutableRawPointer, _ index: Int) -> UnsafeMutablePointer<CChar>? {
    let keys = Handle.object(value, as: ProfileValue.self).keys
    return keys.indices.contains(index) ? cString(keys[index]) : nil
}

@_cdecl("hearth_value_borrow_child")
public func hearthValueBorrowChild(_ value: UnsafeMutableRawPointer, _ index: Int) -> UnsafeMutableRawPointer? {
    let children = Handle.object(value, as: ProfileValue.self).children
    return children.indices.contains(index) ? Handle.borrowed(children[index]) : nil
}
