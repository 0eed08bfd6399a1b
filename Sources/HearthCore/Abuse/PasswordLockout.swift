import Foundation

/// The lockout of password sign-in: a ``LockoutPolicy`` per account (e-mail) and one per client
/// address, decided together.
///
/// An attempt is refused while either subject must wait, with one exception: with
/// ``ownerFromNewAddress``, an account's wait does not refuse an address that has no failures counted
/// (a new address), so an attacker who made the account wait does not lock its owner out. Every such
/// address gets one attempt while the account waits: a wrong password makes it an address with
/// failures.
public struct PasswordLockout: Sendable, Equatable {
    public var account: LockoutPolicy
    public var address: LockoutPolicy
    public var ownerFromNewAddress: Bool

    public init(account: LockoutPolicy, address: LockoutPolicy, ownerFromNewAddress: Bool) {
        self.account = account
        self.address = address
        self.ownerFromNewAddress = ownerFromNewAddress
    }

    /// The subject key of an account.
    public static func accountSubject(email: String) -> String { "account:\(email)" }
    /// The subject key of a client address.
    public static func addressSubject(_ address: String) -> String { "address:\(address)" }

    /// An attempt's place in each subject's count, to take back on success.
    public struct Reservation: Sendable, Equatable {
        public var accountTicket: Int
        public var addressTicket: Int?
    }

    public enum Decision: Sendable, Equatable {
        /// The password may be checked; the attempt is counted as a failure until ``succeeded``.
        case allowed(Reservation)
        /// The account waits until then.
        case accountLocked(until: Date)
        /// The client address waits until then.
        case addressLocked(until: Date)
    }

    /// Decides an attempt on the records as read, and returns the records to write (`nil`: delete).
    /// A refused attempt changes nothing.
    public func attempt(
        account accountRecord: LoginFailureRecord?, address addressRecord: LoginFailureRecord?, hasAddress: Bool, now: Date
    ) -> (decision: Decision, account: LoginFailureRecord?, address: LoginFailureRecord?) {
        if hasAddress, let until = address.lockedUntil(addressRecord, now: now) {
            return (.addressLocked(until: until), accountRecord, addressRecord)
        }
        if let until = account.lockedUntil(accountRecord, now: now) {
            let newAddress = hasAddress && address.current(addressRecord, now: now) == nil
            if !(ownerFromNewAddress && newAddress) {
                return (.accountLocked(until: until), accountRecord, addressRecord)
            }
        }
        let countedAccount = account.attempted(accountRecord, now: now)
        guard hasAddress else {
            return (.allowed(Reservation(accountTicket: countedAccount.ticket, addressTicket: nil)), countedAccount.record, nil)
        }
        let countedAddress = address.attempted(addressRecord, now: now)
        return (
            .allowed(Reservation(accountTicket: countedAccount.ticket, addressTicket: countedAddress.ticket)),
            countedAccount.record, countedAddress.record
        )
    }

    /// The records after the reserved attempt succeeded.
    public func succeeded(
        _ reservation: Reservation, account accountRecord: LoginFailureRecord?, address addressRecord: LoginFailureRecord?
    ) -> (account: LoginFailureRecord?, address: LoginFailureRecord?) {
        let newAccount = account.succeeded(accountRecord, ticket: reservation.accountTicket)
        let newAddress = reservation.addressTicket.flatMap { address.succeeded(addressRecord, ticket: $0) }
        return (newAccount, newAddress)
    }
}
