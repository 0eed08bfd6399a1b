import HearthCore
import Testing

/// `accounts:query`'s bounds, checked before any store is asked.
@Suite("User queries")
struct UserQueryTests {
    @Test("limit 0 (proto3's unset) is the maximum; 1…500 are kept; offset from 0")
    func defaults() throws {
        #expect(try UserQuery().limit == 500)
        #expect(try UserQuery(limit: 0).limit == 500)
        #expect(try UserQuery(limit: 1).limit == 1)
        #expect(try UserQuery(offset: 7, limit: 500).offset == 7)
        let query = try UserQuery()
        #expect(query.sortKey == .uid && !query.descending && query.filter == nil && query.offset == 0)
    }

    @Test("a limit outside 0…500 or a negative offset is INVALID_ARGUMENT, with the bound in the message")
    func bounds() {
        for limit: Int64 in [-1, 501, .max] {
            let error = #expect(throws: HearthError.self) { try UserQuery(limit: limit) }
            #expect(error?.code == .invalidArgument && error?.detail == "limit must be between 0 and 500")
        }
        for offset: Int64 in [-1, .min, Int64(Int32.max) + 1] {
            let error = #expect(throws: HearthError.self) { try UserQuery(offset: offset) }
            #expect(error?.code == .invalidArgument && error?.detail == "offset must be between 0 and 2147483647")
        }
    }
}
