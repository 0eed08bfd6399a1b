import Foundation
import HearthCore
import HearthProviders

/// The ID-token providers, for checks every one of them must pass.
enum IDTokenProvider: String, CaseIterable, Sendable {
    case apple, google, microsoft, facebookLimitedLogin, oidc

    var providerID: String {
        switch self {
        case .apple: "apple.com"
        case .google: "google.com"
        case .microsoft: "microsoft.com"
        case .facebookLimitedLogin: "facebook.com"
        case .oidc: "oidc.corp"
        }
    }

    /// Limited Login requires a nonce.
    var requiresNonce: Bool { self == .facebookLimitedLogin }

    func validClaims(_ environment: FakeEnvironment, _ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        switch self {
        case .apple: environment.appleClaims(changes)
        case .google: environment.googleClaims(changes)
        case .microsoft: environment.microsoftClaims(changes)
        case .facebookLimitedLogin: environment.facebookClaims(changes)
        case .oidc: environment.oidcClaims(changes)
        }
    }

    var rawNonce: String? { requiresNonce ? "fb-raw-nonce" : nil }
}
