import Foundation
import SQLKit

/// Typed column access that never lets a driver's decoding error (which may quote the stored value)
/// escape: failures become ``SQLStoreError/undecodableColumn(_:)``.
extension SQLRow {
    func text(_ column: String) throws -> String {
        try value(column, as: String.self)
    }

    func optionalText(_ column: String) throws -> String? {
        try isNull(column) ? nil : text(column)
    }

    func int64(_ column: String) throws -> Int64 {
        try value(column, as: Int64.self)
    }

    func optionalInt64(_ column: String) throws -> Int64? {
        try isNull(column) ? nil : int64(column)
    }

    func bool(_ column: String) throws -> Bool {
        try value(column, as: Bool.self)
    }

    func date(_ column: String) throws -> Date {
        StoredTime.date(try int64(column))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try isNull(column) ? nil : date(column)
    }

    private func isNull(_ column: String) throws -> Bool {
        do {
            return try decodeNil(column: column)
        } catch {
            throw SQLStoreError.undecodableColumn(column)
        }
    }

    private func value<T: Decodable>(_ column: String, as type: T.Type) throws -> T {
        do {
            return try decode(column: column, as: T.self)
        } catch {
            throw SQLStoreError.undecodableColumn(column)
        }
    }
}
