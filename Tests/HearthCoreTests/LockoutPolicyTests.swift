import Foundation
import HearthCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

@Suite("Lockout policy and rate limits")
struct LockoutPolicyTests {
    let policy = LockoutPolicy(failuresBeforeWait: 3, waitIncrement: 60, maxWait: 150, failureReset: 3_600)

    @Test("the first failures cost nothing; from the Nth each one waits longer, up to the maximum")
    func growingWaits() {
        var record: LoginFailureRecord?
        var waits: [TimeInterval?] = []
        var now = t0
        for _ in 0..<6 {
            #expect(policy.lockedUntil(record, now: now) == nil)
            record = policy.attempted(record, now: now).record
            waits.append(policy.lockedUntil(record, now: now).map { $0.timeIntervalSince(now) })
            now = record!.lockedUntil.map { $0.addingTimeInterval(1) } ?? now.addingTimeInterval(1)
        }
        #expect(waits == [nil, nil, 60, 120, 150, 150])
    }

    @Test("a wait refuses until it ends; failures are forgotten after the reset time without failures")
    func waitAndReset() {
        var record: LoginFailureRecord?
        for _ in 0..<3 { record = policy.attempted(record, now: t0).record }
        #expect(policy.lockedUntil(record, now: t0.addingTimeInterval(59)) == t0.addingTimeInterval(60))
        #expect(policy.lockedUntil(record, now: t0.addingTimeInterval(60)) == nil)
        // Within the reset time the count goes on (the 4th failure waits 120 s)…
        #expect(policy.attempted(record, now: t0.addingTimeInterval(61)).ticket == 4)
        // …after it, it starts again.
        #expect(policy.current(record, now: t0.addingTimeInterval(3_600)) == nil)
        #expect(policy.attempted(record, now: t0.addingTimeInterval(3_600)).ticket == 1)
    }

    @Test("a success forgives its own attempt and the earlier ones, not those counted after it")
    func successForgives() {
        var record: LoginFailureRecord?
        var tickets: [Int] = []
        for _ in 0..<3 {
            let counted = policy.attempted(record, now: t0)
            record = counted.record
            tickets.append(counted.ticket)
        }
        // The 2nd attempt succeeded while the 3rd ran in parallel: the 3rd stays, and so does its wait.
        let afterSecond = policy.succeeded(record, ticket: tickets[1])
        #expect(afterSecond?.failures == 1)
        #expect(afterSecond?.lockedUntil == t0.addingTimeInterval(60))
        // The last one succeeding clears everything.
        #expect(policy.succeeded(record, ticket: tickets[2]) == nil)
        // A shared subject takes back only the success's own attempt.
        var shared = policy
        shared.successForgivesEarlierFailures = false
        #expect(shared.succeeded(record, ticket: tickets[2])?.failures == 2)
    }

    @Test("the quick-failure check makes two attempts close together wait")
    func quickFailures() {
        var quick = policy
        quick.quickFailureInterval = 1
        quick.quickFailureWait = 30
        let first = quick.attempted(nil, now: t0).record
        #expect(first.lockedUntil == nil)
        let second = quick.attempted(first, now: t0.addingTimeInterval(0.5)).record
        #expect(second.lockedUntil == t0.addingTimeInterval(30.5))
        let slow = quick.attempted(first, now: t0.addingTimeInterval(2)).record
        #expect(slow.lockedUntil == nil)
    }

    @Test("an account's wait spares a new address when ownerFromNewAddress is on, and only then")
    func ownerFromNewAddress() {
        let lockout = PasswordLockout(
            account: policy, address: LockoutPolicy(failuresBeforeWait: 100, successForgivesEarlierFailures: false),
            ownerFromNewAddress: true)
        var account: LoginFailureRecord?
        var attacker: LoginFailureRecord?
        for _ in 0..<3 {
            let outcome = lockout.attempt(account: account, address: attacker, hasAddress: true, now: t0)
            account = outcome.account
            attacker = outcome.address
        }
        #expect(
            lockout.attempt(account: account, address: attacker, hasAddress: true, now: t0).decision
                == .accountLocked(until: t0.addingTimeInterval(60)))
        let owner = lockout.attempt(account: account, address: nil, hasAddress: true, now: t0)
        guard case .allowed(let reservation) = owner.decision else {
            Issue.record("the owner's new address was refused")
            return
        }
        // The owner's success clears the account.
        #expect(lockout.succeeded(reservation, account: owner.account, address: owner.address) == (nil, nil))

        var strict = lockout
        strict.ownerFromNewAddress = false
        #expect(
            strict.attempt(account: account, address: nil, hasAddress: true, now: t0).decision == .accountLocked(until: t0.addingTimeInterval(60)))
    }

    @Test("an address that waits is refused for every account")
    func addressWaits() {
        let lockout = PasswordLockout(account: policy, address: LockoutPolicy(failuresBeforeWait: 2, waitIncrement: 10), ownerFromNewAddress: true)
        var address: LoginFailureRecord?
        for _ in 0..<2 { address = lockout.attempt(account: nil, address: address, hasAddress: true, now: t0).address }
        #expect(
            lockout.attempt(account: nil, address: address, hasAddress: true, now: t0).decision == .addressLocked(until: t0.addingTimeInterval(10)))
    }

    @Test("a limit refuses the hit after the limit; Retry-After is the rest of the fixed window")
    func rateLimit() {
        let limit = RateLimit("new-accounts", limit: 2, window: 3_600)
        #expect(!limit.refuses(count: 2))
        #expect(limit.refuses(count: 3))
        #expect(!RateLimit("off", limit: 0, window: 3_600).refuses(count: 1_000))
        #expect(limit.secondsUntilWindowEnds(now: t0) == 3_600)  // t0 is a multiple of an hour
        #expect(limit.secondsUntilWindowEnds(now: t0.addingTimeInterval(3_599.5)) == 1)
        #expect(limit.counterKey(address: "192.0.2.1") == "ip-limit:new-accounts:3600:192.0.2.1")
    }
}
