import HearthCore
import Testing

/// The one mapping of a refused uniqueness rule to the error a client gets.
@Suite("StoreConflict: the error of a refused write")
struct StoreConflictTests {
    @Test("e-mail and identity conflicts are EMAIL_EXISTS and FEDERATED_USER_ID_ALREADY_LINKED; a uid taken is internal")
    func errors() {
        #expect(StoreConflict.email.error.code == .emailExists)
        #expect(StoreConflict.providerIdentity.error.code == .federatedUserIDAlreadyLinked)
        #expect(StoreConflict.uid.error.code == .internalError)
    }

    @Test("a write's conflict comes out as its error; other errors and results pass through")
    func mapped() async throws {
        await #expect(throws: HearthError(.emailExists)) { try await StoreConflict.mapped { throw StoreConflict.email } }
        await #expect(throws: HearthError(.userNotFound)) { try await StoreConflict.mapped { throw HearthError(.userNotFound) } }
        #expect(try await StoreConflict.mapped { 42 } == 42)
    }
}
