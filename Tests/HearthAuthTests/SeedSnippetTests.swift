import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Synchronization
import Testing

// The Swift snippets of the seed guides (/work/shared/seeds), compiled with only the import (`HearthAuth` for
// `FirebaseAuth`) and the configuration line (`HearthApp.configure(options:)` for `FirebaseApp.configure()`,
// done once in `SeedApp.prepare`) changed. Each snippet is copied verbatim between `// --- snippet` and
// `// --- end`; the only additions are lines that record what the snippet's callbacks saw, placed where the
// guide has a placeholder comment (`// ...`, `// Handle error.`, `// User is signed in.`).
//
// The snippets use the default app, so these tests run one at a time; each points the default app at its own
// server with `useEmulator(withHost:port:)`, the way Firebase apps point at an emulator.
//
// `getCredentialWith(nil)` runs the server's whole browser sign-in (createAuthUri, the provider's consent page,
// /__/auth/handler, the app's return URL, signInWithIdp): the app's default delegate is a
// `BrowserSignInUIDelegate` whose "browser" is `ScriptedBrowser`, a person approving at the sandbox's consent page.
// So the custom parameters the snippets set (`lang`, `tenant`, `prompt`) travel to the provider as they would.

/// The default app of the snippets.
enum SeedApp {
    private static let configured = Mutex(false)
    /// The app's return URL for browser sign-in (a custom scheme, as an iOS app registers).
    static let returnURL = "com.example.hearth:/oauth2redirect"

    /// Points the default app at `live`, signed out, with a browser in which the person approves as the sandbox
    /// identity `subject` (nobody in particular when nil: the consent page then shows the identities to pick from).
    /// - Returns: the scripted browser, which records the pages it visited.
    @discardableResult
    static func prepare(_ live: LiveHearth, signInAs subject: String? = nil) throws -> ScriptedBrowser {
        configured.withLock { done in
            guard !done else { return }
            var options = HearthOptions(apiKey: live.apiKey, projectID: live.projectID, serverURL: live.baseURL)
            options.userStore = MemorySignedInUserStore()
            HearthApp.configure(options: options)  // FirebaseApp.configure()
            done = true
        }
        let auth = Auth.auth()
        try auth.signOut()
        auth.useEmulator(withHost: live.host, port: live.port)
        let browser = ScriptedBrowser(subject: subject ?? "")
        auth.defaultUIDelegate = BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: browser.presenter)
        return browser
    }
}

/// Signs in inside the browser step and reports what the sign-in reported, the way the web SDK's popup sign-in
/// does: the 001 guide's recovery snippet looks for `accountExistsWithDifferentCredential` in
/// `getCredentialWith`'s completion, where FirebaseAuth's iOS SDK never puts it. When the sign-in succeeds, the
/// credential the server returned (Twitter's token and secret) is handed on.
final class SigningInUIDelegate: AuthUIDelegate {
    let browser: any AuthUIDelegate

    init(_ browser: any AuthUIDelegate) { self.browser = browser }

    func credential(for provider: OAuthProvider) async throws -> AuthCredential {
        let credential = try await browser.credential(for: provider)
        let result = try await provider.auth.signIn(with: credential)
        return result.credential ?? credential
    }
}

// Stand-ins for the provider SDKs the anonymous-auth guide calls (GoogleSignIn, FBSDKLoginKit).
struct GIDAuthentication {
    var idToken: String?
    var accessToken: String
}

struct GIDGoogleUser {
    var authentication: GIDAuthentication
}

final class AccessToken: Sendable {
    let tokenString: String
    init(tokenString: String) { self.tokenString = tokenString }
    nonisolated(unsafe) static var current: AccessToken?
}

/// What the snippets' callbacks saw.
final class Seen: Sendable {
    let results = Recorder<AuthDataResult?>()
    let errors = Recorder<NSError?>()
    let strings = Recorder<String>()
}

@Suite(.serialized) struct SeedSnippetTests {
    // MARK: 003 — anonymous authentication on Apple platforms

    @Test("003: anonymous sign-in, then linking Google, Facebook and e-mail/password credentials")
    func anonymousUpgrade() async throws {
        try await withLiveHearth { live in
            try SeedApp.prepare(live)
            let sandbox = live.sandbox

            for method in ["google", "facebook", "password"] {
                try Auth.auth().signOut()
                let seen = Seen()
                // --- snippet (003 step 3)
                Auth.auth().signInAnonymously { authResult, error in
                    // ...
                    seen.results.append(authResult)
                }
                // --- end
                await eventually { seen.results.count == 1 }
                let authResult = seen.results.all.first ?? nil

                func step4() {
                    // --- snippet (003 step 4)
                    guard let user = authResult?.user else { return }
                    let isAnonymous = user.isAnonymous  // true
                    let uid = user.uid
                    // --- end
                    #expect(isAnonymous)
                    seen.strings.append(uid)
                }
                step4()
                let anonymousUID = try #require(seen.strings.all.first)

                var made: AuthCredential?
                switch method {
                case "google":
                    let googleIDToken = try sandbox.googleIDToken(for: .googleGmail)
                    let googleAccessToken = try sandbox.googleAccessToken(for: .googleGmail)
                    let user: GIDGoogleUser? = GIDGoogleUser(
                        authentication: GIDAuthentication(idToken: googleIDToken, accessToken: googleAccessToken))
                    func google() {
                        // --- snippet (003 Google Sign-In)
                        guard
                            let authentication = user?.authentication,
                            let idToken = authentication.idToken
                        else {
                            return
                        }

                        let credential = GoogleAuthProvider.credential(
                            withIDToken: idToken,
                            accessToken: authentication.accessToken)
                        // --- end
                        made = credential
                    }
                    google()
                case "facebook":
                    AccessToken.current = AccessToken(tokenString: try sandbox.facebookAccessToken(for: .facebookUser))
                    // --- snippet (003 Facebook Login)
                    let credential =
                        FacebookAuthProvider
                        .credential(withAccessToken: AccessToken.current!.tokenString)
                    // --- end
                    made = credential
                default:
                    let email = "upgraded@example.com"
                    let password = "correct horse"
                    // --- snippet (003 e-mail/password)
                    let credential = EmailAuthProvider.credential(withEmail: email, password: password)
                    // --- end
                    made = credential
                }
                let credential = try #require(made)
                let user = try #require(Auth.auth().currentUser)
                // --- snippet (003 step 3 of upgrading)
                user.link(with: credential) { authResult, error in
                    // ...
                    seen.results.append(authResult)
                    seen.errors.append(error as NSError?)
                }
                // --- end
                await eventually { seen.results.count == 2 }
                #expect((seen.errors.all.first ?? nil) == nil)
                let linked = try #require(seen.results.all.last ?? nil)
                #expect(linked.user.uid == anonymousUID)
                #expect(linked.user === Auth.auth().currentUser)
                #expect(!linked.user.isAnonymous)
                let expectedProvider = ["google": "google.com", "facebook": "facebook.com", "password": "password"][method]!
                #expect(linked.user.providerData.map(\.providerID).contains(expectedProvider))
                let token = try await linked.user.getIDTokenResult()
                #expect(token.claims["user_id"] as? String == anonymousUID)
            }
        }
    }

    // MARK: 001 — Twitter on Apple platforms

    @Test("001: Twitter sign-in through getCredentialWith and the browser (lang reaches Twitter), link, reauthenticate, sign out")
    func twitter() async throws {
        try await withLiveHearth { live in
            let browser = try SeedApp.prepare(live, signInAs: SandboxIdentity.twitterUser.subject)
            let seen = Seen()

            // --- snippet (001 step 2)
            var provider = OAuthProvider(providerID: "twitter.com")
            // --- end
            // --- snippet (001 step 3)
            provider.customParameters = [
                "lang": "fr"
            ]
            // --- end
            // --- snippet (001 step 5)
            provider.getCredentialWith(nil) { credential, error in
                if error != nil {
                    // Handle error.
                    seen.errors.append(error as NSError?)
                }
                if credential != nil {
                    Auth.auth().signIn(with: credential) { authResult, error in
                        if error != nil {
                            // Handle error.
                            seen.errors.append(error as NSError?)
                        }
                        // User is signed in.
                        seen.results.append(authResult)
                        // IdP data available in authResult.additionalUserInfo.profile.
                        // Twitter OAuth access token can also be retrieved by:
                        // (authResult.credential as? OAuthCredential)?.accessToken
                        // Twitter OAuth ID token can be retrieved by calling:
                        // (authResult.credential as? OAuthCredential)?.idToken
                        // Twitter OAuth secret can be retrieved by calling:
                        // (authResult.credential as? OAuthCredential)?.secret
                    }
                }
            }
            // --- end
            await eventually { seen.results.count == 1 }
            #expect(seen.errors.count == 0)
            let signedIn = try #require(seen.results.all.first ?? nil)
            #expect(signedIn.additionalUserInfo?.providerID == "twitter.com")
            #expect(signedIn.additionalUserInfo?.isNewUser == true)
            #expect(signedIn.additionalUserInfo?.username == "sandbox_jack")
            #expect(signedIn.additionalUserInfo?.profile?["screen_name"] as? String == "sandbox_jack")
            #expect(signedIn.credential?.accessToken?.isEmpty == false)
            #expect(signedIn.credential?.secret?.isEmpty == false)
            // Step 3's `lang` went to Twitter's authenticate page with the request token.
            #expect(live.sandbox.lastAuthorizationRequest(.twitter)?["lang"] == "fr")
            #expect(live.sandbox.lastAuthorizationRequest(.twitter)?["oauth_token"]?.isEmpty == false)
            #expect(browser.visited.all.first?.contains("lang=fr") == true)
            let twitterUID = signedIn.user.uid

            // Link a Twitter credential to another (anonymous) user: a second Twitter identity.
            try Auth.auth().signOut()
            _ = try await Auth.auth().signInAnonymously()
            let other = SandboxIdentity(provider: .twitter, subject: "424242", displayName: "Second Jack", screenName: "second_jack")
            live.sandbox.add(other)
            let token = try live.sandbox.twitterAccessToken(for: other)
            let credential = TwitterAuthProvider.credential(withToken: token.token, secret: token.secret)
            // --- snippet (001 step 6)
            Auth().currentUser.link(withCredential: credential) { authResult, error in
                if error != nil {
                    // Handle error.
                    seen.errors.append(error as NSError?)
                }
                // Twitter credential is linked to the current user.
                seen.results.append(authResult)
                // IdP data available in authResult.additionalUserInfo.profile.
                // Twitter OAuth access token can also be retrieved by:
                // (authResult.credential as? OAuthCredential)?.accessToken
                // Twitter OAuth ID token can be retrieved by calling:
                // (authResult.credential as? OAuthCredential)?.idToken
                // Twitter OAuth secret can be retrieved by calling:
                // (authResult.credential as? OAuthCredential)?.secret
            }
            // --- end
            await eventually { seen.results.count == 2 }
            #expect(seen.errors.count == 0)
            let linked = try #require(seen.results.all.last ?? nil)
            #expect(linked.user.uid != twitterUID)
            #expect(!linked.user.isAnonymous)
            #expect(linked.credential?.secret == token.secret)

            // Reauthenticate with a fresh credential of the same identity.
            let fresh = try live.sandbox.twitterAccessToken(for: other)
            _ = fresh
            do {
                let credential = TwitterAuthProvider.credential(withToken: fresh.token, secret: fresh.secret)
                // --- snippet (001 step 7)
                Auth().currentUser.reauthenticateWithCredential(withCredential: credential) { authResult, error in
                    if error != nil {
                        // Handle error.
                        seen.errors.append(error as NSError?)
                    }
                    // User is re-authenticated with fresh tokens minted and
                    // should be able to perform sensitive operations like account
                    // deletion and email or password update.
                    seen.results.append(authResult)
                    // IdP data available in result.additionalUserInfo.profile.
                    // Additional OAuth access token is can also be retrieved by:
                    // (authResult.credential as? OAuthCredential)?.accessToken
                    // Twitter OAuth ID token can be retrieved by calling:
                    // (authResult.credential as? OAuthCredential)?.idToken
                    // Twitter OAuth secret can be retrieved by calling:
                    // (authResult.credential as? OAuthCredential)?.secret
                }
                // --- end
            }
            await eventually { seen.results.count == 3 }
            #expect(seen.errors.count == 0)
            let reauthenticated = try #require(seen.results.all.last ?? nil)
            #expect(reauthenticated.user.uid == linked.user.uid)
            #expect(reauthenticated.user !== Auth.auth().currentUser)

            // --- snippet (001 sign out)
            let firebaseAuth = Auth.auth()
            do {
                try firebaseAuth.signOut()
            } catch let signOutError as NSError {
                print("Error signing out: %@", signOutError)
            }
            // --- end
            #expect(Auth.auth().currentUser == nil)
        }
    }

    @Test("001: one account per e-mail: the verbatim recovery snippet, where the error arrives and where the guide expects it")
    func twitterAccountExists() async throws {
        try await withLiveHearth { live in
            try SeedApp.prepare(live)
            // A password account owns the address; Twitter reports it unverified, so the server asks to confirm.
            let identity = SandboxIdentity(
                provider: .twitter, subject: "777000111", email: "shared@example.com", emailVerified: false,
                displayName: "Shared Twitter", screenName: "shared_tw")
            live.sandbox.add(identity)
            let browser = ScriptedBrowser(subject: identity.subject)
            let browserDelegate = BrowserSignInUIDelegate(returnURL: SeedApp.returnURL, presentBrowser: browser.presenter)
            Auth.auth().defaultUIDelegate = browserDelegate
            let owner = try await Auth.auth().createUser(withEmail: "shared@example.com", password: "owner-pass")
            let ownerUID = owner.user.uid
            try Auth.auth().signOut()

            let seen = Seen()
            var provider = OAuthProvider(providerID: "twitter.com")
            let password = "owner-pass"
            func recoverySnippet() {
                // --- snippet (001 account exists with different credential)
                // Sign-in with an OAuth credential.
                provider.getCredentialWith(nil) { credential, error in
                    // An account with the same email already exists.
                    if (error as NSError?)?.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue {
                        // Get pending credential and email of existing account.
                        let existingAcctEmail = (error! as NSError).userInfo[AuthErrorUserInfoEmailKey] as! String
                        let pendingCred = (error! as NSError).userInfo[AuthErrorUserInfoUpdatedCredentialKey] as! AuthCredential
                        // Lookup existing account identifier by the email.
                        Auth.auth().fetchProviders(forEmail: existingAcctEmail) { providers, error in
                            // Existing email/password account.
                            if (providers?.contains(EmailAuthProviderID))! {
                                // Existing password account for email. Ask user to provide the password of the
                                // existing account.
                                // Sign in with existing account.
                                Auth.auth().signIn(withEmail: existingAcctEmail, password: password) { user, error in
                                    // Successfully signed in.
                                    if user != nil {
                                        // Link pending credential to account.
                                        Auth.auth().currentUser?.linkAndRetrieveData(with: pendingCred) { result, error in
                                            // ...
                                            seen.results.append(result)
                                            seen.errors.append(error as NSError?)
                                        }
                                    }
                                }
                            }
                        }
                        return
                    }

                    // Other errors.
                    if error != nil {
                        // handle the error.
                        return
                    }

                    // Sign in with the credential.
                    if credential != nil {
                        Auth.auth().signInAndRetrieveData(with: credential!) { result, error in
                            if error != nil {
                                // handle the error.
                                seen.errors.append(error as NSError?)
                                return
                            }
                        }
                    }
                }
                // --- end
            }

            // 1. As FirebaseAuth does it: getCredentialWith only runs the browser, so the conflict is reported by
            // the sign-in it feeds, in signInAndRetrieveData's completion, and the guide's recovery branch is skipped.
            recoverySnippet()
            await eventually { seen.errors.count == 1 }
            let error = try #require(seen.errors.all.first ?? nil)
            #expect(error.domain == AuthErrorDomain)
            #expect(error.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "shared@example.com")
            #expect(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] is OAuthCredential)
            #expect(seen.results.count == 0)
            #expect(Auth.auth().currentUser == nil)

            // 2. Where the guide expects the error: a delegate that signs in inside the browser step (as the web
            // SDK's popup does) reports the conflict from getCredentialWith, and the snippet's own recovery runs:
            // fetchProviders(forEmail:), the password sign-in and linkAndRetrieveData(with:) on the live server.
            Auth.auth().defaultUIDelegate = SigningInUIDelegate(browserDelegate)
            recoverySnippet()
            await eventually { seen.results.count == 1 }
            #expect(seen.errors.count == 2)
            #expect((seen.errors.all.last ?? nil) == nil)
            let linked = try #require(seen.results.all.first ?? nil)
            #expect(linked.user.uid == ownerUID)
            #expect(linked.user === Auth.auth().currentUser)
            #expect(linked.additionalUserInfo?.providerID == "twitter.com")
            #expect(Set(linked.user.providerData.map(\.providerID)) == ["password", "twitter.com"])
            #expect(browser.visited.all.filter { $0.contains("/sandbox/twitter/") }.count >= 2)

            // The Twitter identity now signs in to the owner's account, through the browser again.
            try Auth.auth().signOut()
            Auth.auth().defaultUIDelegate = browserDelegate
            let again = try await Auth.auth().signIn(with: try await provider.credential(with: nil))
            #expect(again.user.uid == ownerUID)
        }
    }

    // MARK: 004 — Microsoft on Apple platforms

    @Test(
        "004: Microsoft sign-in through getCredentialWith and the browser (prompt, tenant, scopes reach the provider), link, reauthenticate, sign out"
    )
    func microsoft() async throws {
        try await withLiveHearth { live in
            let browser = try SeedApp.prepare(live, signInAs: SandboxIdentity.microsoftWork.subject)
            let seen = Seen()

            // --- snippet (004 step 2)
            var provider = OAuthProvider(providerID: "microsoft.com")
            // --- end
            // --- snippet (004 step 3)
            provider.customParameters = [
                "prompt": "consent",
                "login_hint": "user@firstadd.onmicrosoft.com",
            ]
            // --- end
            // --- snippet (004 step 4)
            provider.scopes = ["mail.read", "calendars.read"]
            // --- end
            #expect(provider.scopes == ["mail.read", "calendars.read"])
            func step6() {
                // --- snippet (004 step 6)
                // Replace nil with the custom class that conforms to AuthUIDelegate
                // you created in last step to use a customized web view.
                provider.getCredentialWith(nil) { credential, error in
                    if error != nil {
                        // Handle error.
                        seen.errors.append(error as NSError?)
                    }
                    if credential != nil {
                        Auth().signIn(with: credential) { authResult, error in
                            if error != nil {
                                // Handle error.
                                seen.errors.append(error as NSError?)
                            }
                            // User is signed in.
                            seen.results.append(authResult)
                            // IdP data available in authResult.additionalUserInfo.profile.
                            // OAuth access token can also be retrieved:
                            // (authResult.credential as? OAuthCredential)?.accessToken
                            // OAuth ID token can also be retrieved:
                            // (authResult.credential as? OAuthCredential)?.idToken
                        }
                    }
                }
                // --- end
            }

            // With step 3's parameters: they and the scopes reach Microsoft's authorization page.
            step6()
            await eventually { seen.results.count == 1 }
            #expect(seen.errors.count == 0)
            let signedIn = try #require(seen.results.all.first ?? nil)
            #expect(signedIn.additionalUserInfo?.providerID == "microsoft.com")
            #expect(signedIn.user.email == SandboxIdentity.microsoftWork.email)
            #expect(signedIn.credential?.idToken?.isEmpty == false)
            #expect(signedIn.user.photoURL == nil)
            let microsoftUID = signedIn.user.uid
            let atMicrosoft = try #require(live.sandbox.lastAuthorizationRequest(.microsoft))
            #expect(atMicrosoft["prompt"] == "consent")
            #expect(atMicrosoft["login_hint"] == "user@firstadd.onmicrosoft.com")
            let scopes = Set((atMicrosoft["scope"] ?? "").split(separator: " ").map(String.init))
            #expect(scopes.isSuperset(of: ["openid", "mail.read", "calendars.read"]))
            #expect(browser.visited.all.first?.contains("/sandbox/microsoft/common/oauth2/v2.0/authorize?") == true)
            try Auth.auth().signOut()

            // --- snippet (004 step 3, tenant)
            provider.customParameters = [
                // Optional "tenant" parameter in case you are using an Azure AD
                // tenant. eg. '8eaef023-2b34-4da1-9baa-8bc8c9d6a490' or
                // 'contoso.onmicrosoft.com' or "common" for tenant-independent
                // tokens. The default value is "common".
                "tenant": "TENANT_ID"
            ]
            // --- end
            // Taken literally, the guide's placeholder is no tenant: refused before any browser opens.
            let pagesBefore = browser.visited.count
            step6()
            await eventually { seen.errors.count == 1 }
            let refused = try #require(seen.errors.all.first ?? nil)
            #expect(refused.code == AuthErrorCode.invalidProviderID.rawValue)
            #expect(refused.localizedDescription == "The Microsoft tenant tenant_id is not allowed for this app.")
            #expect(
                refused.userInfo["HearthAuthServerMessageKey"] as? String
                    == "INVALID_PROVIDER_ID : The Microsoft tenant tenant_id is not allowed for this app.")
            #expect(browser.visited.count == pagesBefore)
            #expect(Auth.auth().currentUser == nil)

            // With the placeholder filled in as the guide asks (the sandbox's Contoso tenant), the tenant reaches
            // Microsoft: its authorization page is the tenant's own, which lists only that tenant's accounts.
            provider.customParameters?["tenant"] = SandboxMicrosoftTenant.contoso.domain
            step6()
            await eventually { seen.results.count == 2 }
            #expect(seen.errors.count == 1)
            let again = try #require(seen.results.all.last ?? nil)
            #expect(again.user.uid == microsoftUID)
            #expect(again.additionalUserInfo?.isNewUser == false)
            #expect(browser.visited.all[pagesBefore].contains("/sandbox/microsoft/contoso.onmicrosoft.com/oauth2/v2.0/authorize?"))
            #expect(live.sandbox.lastAuthorizationRequest(.microsoft)?["tenant"] == nil)

            // Link a Microsoft credential (personal account) to an anonymous user.
            try Auth.auth().signOut()
            _ = try await Auth.auth().signInAnonymously()
            let credential = OAuthProvider.credential(
                providerID: .custom("microsoft.com"), idToken: try live.sandbox.microsoftIDToken(for: .microsoftPersonal), accessToken: nil)
            // --- snippet (004 link)
            Auth().currentUser.link(withCredential: credential) { authResult, error in
                if error != nil {
                    // Handle error.
                    seen.errors.append(error as NSError?)
                }
                // Microsoft credential is linked to the current user.
                seen.results.append(authResult)
                // IdP data available in authResult.additionalUserInfo.profile.
                // OAuth access token can also be retrieved:
                // (authResult.credential as? OAuthCredential)?.accessToken
                // OAuth ID token can also be retrieved:
                // (authResult.credential as? OAuthCredential)?.idToken
            }
            // --- end
            await eventually { seen.results.count == 3 }
            #expect(seen.errors.count == 1)
            let linked = try #require(seen.results.all.last ?? nil)
            #expect(linked.user.uid != microsoftUID)
            #expect(linked.user.providerData.first { $0.providerID == "microsoft.com" }?.uid == "fde926f844473904")

            do {
                let credential = OAuthProvider.credential(
                    providerID: .custom("microsoft.com"), idToken: try live.sandbox.microsoftIDToken(for: .microsoftPersonal))
                // --- snippet (004 reauthenticate)
                Auth().currentUser.reauthenticateWithCredential(withCredential: credential) { authResult, error in
                    if error != nil {
                        // Handle error.
                        seen.errors.append(error as NSError?)
                    }
                    // User is re-authenticated with fresh tokens minted and
                    // should be able to perform sensitive operations like account
                    // deletion and email or password update.
                    seen.results.append(authResult)
                    // IdP data available in result.additionalUserInfo.profile.
                    // Additional OAuth access token can also be retrieved:
                    // (authResult.credential as? OAuthCredential)?.accessToken
                    // OAuth ID token can also be retrieved:
                    // (authResult.credential as? OAuthCredential)?.idToken
                }
                // --- end
            }
            await eventually { seen.results.count == 4 }
            #expect(seen.errors.count == 1)
            #expect((seen.results.all.last ?? nil)?.user.uid == linked.user.uid)

            // --- snippet (004 sign out)
            let firebaseAuth = Auth.auth()
            do {
                try firebaseAuth.signOut()
            } catch let signOutError as NSError {
                print("Error signing out: %@", signOutError)
            }
            // --- end
            #expect(Auth.auth().currentUser == nil)
        }
    }
}
