extension ConsoleOperators {
    /// What changing a role did.
    public enum RoleChange: Sendable, Equatable {
        /// The role was changed from `previous`.
        case changed(previous: OperatorRecord.Role)
        /// The operator had that role already: nothing changed, no event.
        case unchanged
        /// There is no operator with that e-mail.
        case notFound
    }

    /// Gives the operator with `email` the role `role`, at once (their sessions read the role with each request); an
    /// audit event (``AuditEvent/Kind/consoleOperatorRoleChanged``) names who changed it.
    /// - Parameter actorID: who changed it, as the audit event names them.
    public func changeRole(email: String, to role: OperatorRecord.Role, actorID: String) async throws -> RoleChange {
        guard let email = EmailAddress.normalize(email), let record = try await store.consoleOperator(email: email) else { return .notFound }
        let previous = LockedBox<OperatorRecord.Role?>(nil)
        guard
            try await store.updateConsoleOperator(
                id: record.id,
                { current in
                    previous.withLock { $0 = current.role }
                    current.role = role
                }) != nil, let before = previous.withLock({ $0 })
        else { return .notFound }
        guard before != role else { return .unchanged }
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .consoleOperatorRoleChanged, actor: .administrator, actorID: actorID,
                details: ["operator": email, "role": role.rawValue, "previousRole": before.rawValue]))
        return .changed(previous: before)
    }
}
