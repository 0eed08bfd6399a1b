/// The values of a proto3 enum, by number: `names[n]` is the name of number `n`.
public protocol WireEnumValues: Sendable {
    static var names: [String] { get }
}

/// An enum field as proto3 JSON carries it: written as its name, read from its name or its number
/// (Android sends `requestType: 6` for `EMAIL_SIGNIN`, iOS `tokenType: "3"` for `CODE`). A name or number the enum lacks is refused, as
/// Google refuses it.
public struct WireEnum<Values: WireEnumValues>: Codable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            guard Values.names.indices.contains(number) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no value numbered \(number)"))
            }
            name = Values.names[number]
        } else {
            let text = try container.decode(String.self)
            // The iOS SDK writes some numbers as strings (`"3"`); proto3 JSON parsers accept them.
            if !text.isEmpty, text.utf8.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(text) {
                guard Values.names.indices.contains(number) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no value numbered \(number)"))
                }
                name = Values.names[number]
                return
            }
            guard Values.names.contains(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no value named \(text)"))
            }
            name = text
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public var description: String { name }
}

/// `deleteAttribute` of `accounts:update` (`UserAttributeName`).
public enum UserAttributeNames: WireEnumValues {
    public static let names = [
        "USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD", "RAW_USER_INFO",
    ]
}

/// `sortBy` of `accounts:query`.
public enum QuerySortByNames: WireEnumValues {
    public static let names = ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"]
}

/// `order` of `accounts:query`.
public enum QueryOrderNames: WireEnumValues {
    public static let names = ["ORDER_UNSPECIFIED", "ASC", "DESC"]
}

/// `passwordHashOrder` of `accounts:batchCreate`.
public enum PasswordHashOrderNames: WireEnumValues {
    public static let names = ["UNSPECIFIED_ORDER", "SALT_AND_PASSWORD", "PASSWORD_AND_SALT"]
}

/// `requestType` of `accounts:sendOobCode` and `accounts:resetPassword` (`OobReqType`); Android sends the index
/// (6 for `EMAIL_SIGNIN`).
public enum OobRequestTypeNames: WireEnumValues {
    public static let names = [
        "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL", "RECOVER_EMAIL",
        "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
    ]
}
