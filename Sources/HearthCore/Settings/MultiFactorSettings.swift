import Foundation

/// The project's second factors: Identity Platform's `mfa` config (`state`, `enabledProviders`, the TOTP provider's
/// `adjacentIntervals`) and Hearth's recovery codes.
public struct MultiFactorSettings: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable, CaseIterable {
        /// No enrolment. Factors enrolled while it was on are still asked for at sign-in: turning MFA off does not
        /// open accounts that chose a second factor (an administrator removes a factor to do that).
        case disabled = "DISABLED"
        case enabled = "ENABLED"
        /// As ``enabled``: Identity Platform leaves it to the app to ask users without a factor to enrol.
        case mandatory = "MANDATORY"
    }

    public var state: State
    /// SMS codes as a second factor (`enabledProviders: ["PHONE_SMS"]`).
    public var phoneEnabled: Bool
    /// Authenticator apps (`providerConfigs[].totpProviderConfig`, `state: ENABLED`).
    public var totpEnabled: Bool
    /// Periods before and after the current one whose TOTP codes are also taken (0…10; Identity Platform's default 5).
    public var totpAdjacentIntervals: Int
    /// Recovery codes (a Hearth extension): one-time codes a user generates and keeps, taken in place of a factor.
    public var recoveryCodesEnabled: Bool

    public init(
        state: State = .disabled, phoneEnabled: Bool = false, totpEnabled: Bool = false, totpAdjacentIntervals: Int = 5,
        recoveryCodesEnabled: Bool = false
    ) {
        self.state = state
        self.phoneEnabled = phoneEnabled
        self.totpEnabled = totpEnabled
        self.totpAdjacentIntervals = totpAdjacentIntervals
        self.recoveryCodesEnabled = recoveryCodesEnabled
    }

    /// Whether users may enrol factors of `kind`.
    public func allowsEnrolment(of kind: SecondFactorKind) -> Bool {
        guard state != .disabled else { return false }
        switch kind {
        case .phone: return phoneEnabled
        case .totp: return totpEnabled
        case .recoveryCode: return recoveryCodesEnabled
        }
    }

    public static let maxAdjacentIntervals = 10

    /// Throws `INVALID_CONFIG` for an adjacent-interval count out of 0…10.
    public func checked() throws -> MultiFactorSettings {
        guard (0...Self.maxAdjacentIntervals).contains(totpAdjacentIntervals) else {
            throw HearthError(.invalidConfig, detail: "adjacentIntervals must be between 0 and \(Self.maxAdjacentIntervals).")
        }
        return self
    }
}
