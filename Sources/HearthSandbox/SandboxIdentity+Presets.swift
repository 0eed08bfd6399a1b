/// Ready-made accounts, a few per provider, with fixed ids so tests can name them.
extension SandboxIdentity {
    // MARK: Apple

    /// An Apple account sharing its real address (`is_private_email` "false"), native sign-in (`real_user_status` 2).
    public static let appleAlice = SandboxIdentity(
        provider: .apple, subject: "001928.a1b2c3d4e5f60718293a4b5c6d7e8f90.1207", email: "alice@example.com",
        emailVerified: true, displayName: "Alice Appleseed", givenName: "Alice", familyName: "Appleseed",
        isPrivateEmail: false, realUserStatus: 2)
    /// An Apple account hiding its address behind a private relay.
    public static let appleRelay = SandboxIdentity(
        provider: .apple, subject: "001928.0f1e2d3c4b5a69788796a5b4c3d2e1f0.0415",
        email: "x7k2mq9p4d@privaterelay.appleid.com", emailVerified: true, displayName: "Bob Relay",
        givenName: "Bob", familyName: "Relay", isPrivateEmail: true)
    /// A managed Apple Account (e.g. a student) whose token has no email at all.
    public static let appleNoEmail = SandboxIdentity(
        provider: .apple, subject: "001928.99aa88bb77cc66dd55ee44ff33001122.2231")

    // MARK: Microsoft

    /// A work account in ``SandboxMicrosoftTenant/contoso``.
    public static let microsoftWork = SandboxIdentity(
        provider: .microsoft, subject: "8d0a4f3e-2b1c-4d5e-9f60-718293a4b5c6", email: "adele@contoso.com",
        emailVerified: true, displayName: "Adele Vance", givenName: "Adele", familyName: "Vance",
        tenantID: SandboxMicrosoftTenant.contoso.id, preferredUsername: "adele@contoso.onmicrosoft.com")
    /// A personal Microsoft account: consumers tenant, `oid` `00000000-0000-0000-fde9-26f844473904`
    /// (Graph / Firebase id `fde926f844473904`).
    public static let microsoftPersonal = SandboxIdentity(
        provider: .microsoft, subject: microsoftPersonalObjectID(federatedID: "fde926f844473904"),
        email: "abe.lincoln@outlook.com", emailVerified: true, displayName: "Abe Lincoln", givenName: "Abe",
        familyName: "Lincoln", tenantID: SandboxMicrosoftTenant.personalAccountsTenantID,
        preferredUsername: "abe.lincoln@outlook.com")
    /// A work account in ``SandboxMicrosoftTenant/fabrikam`` whose email domain is not verified (no `xms_edov`).
    public static let microsoftUnverifiedEmail = SandboxIdentity(
        provider: .microsoft, subject: "5e6f7081-92a3-4b4c-8d5e-6f708192a3b4", email: "megan@gmail.com",
        emailVerified: false, displayName: "Megan Bowen", tenantID: SandboxMicrosoftTenant.fabrikam.id,
        preferredUsername: "megan@fabrikam.onmicrosoft.com")

    // MARK: Google

    /// A Gmail account with profile scope granted.
    public static let googleGmail = SandboxIdentity(
        provider: .google, subject: "109876543210987654321", email: "grace.hopper.sandbox@gmail.com",
        emailVerified: true, displayName: "Grace Hopper", givenName: "Grace", familyName: "Hopper",
        photoURL: "https://lh3.googleusercontent.com/a/ACg8ocSandboxGrace=s96-c", locale: "en")
    /// A Google Workspace account (`hd` claim).
    public static let googleWorkspace = SandboxIdentity(
        provider: .google, subject: "104455667788990011223", email: "ada@example.com", emailVerified: true,
        displayName: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace",
        photoURL: "https://lh3.googleusercontent.com/a/ACg8ocSandboxAda=s96-c", hostedDomain: "example.com",
        locale: "en-GB")
    /// A Google account whose (non-Gmail) address is not verified.
    public static let googleUnverified = SandboxIdentity(
        provider: .google, subject: "117788990011223344556", email: "linus@example.org", emailVerified: false,
        displayName: "Linus Unverified", givenName: "Linus", familyName: "Unverified")

    // MARK: Facebook

    /// A Facebook account that granted `email`.
    public static let facebookUser = SandboxIdentity(
        provider: .facebook, subject: "10158291837465123", email: "frank@example.com", emailVerified: false,
        displayName: "Frank Sandbox", givenName: "Frank", familyName: "Sandbox",
        photoURL: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158291837465123&height=50&width=50")
    /// A Facebook account without an email (phone sign-up).
    public static let facebookNoEmail = SandboxIdentity(
        provider: .facebook, subject: "10160011223344556", displayName: "Nora Noemail", givenName: "Nora",
        familyName: "Noemail")

    // MARK: GitHub

    /// A GitHub user with a private verified primary email and two more addresses.
    public static let githubUser = SandboxIdentity(
        provider: .github, subject: "9919191", email: "mona@example.com", emailVerified: true,
        displayName: "Mona Lisa Octocat", photoURL: "https://avatars.githubusercontent.com/u/9919191?v=4",
        screenName: "sandbox-mona",
        otherEmails: [
            SandboxEmailAddress(email: "9919191+sandbox-mona@users.noreply.github.com", verified: true),
            SandboxEmailAddress(email: "mona.old@example.org", verified: false),
        ])
    /// A GitHub user whose primary email is public but unverified, and who has no display name.
    public static let githubUnverified = SandboxIdentity(
        provider: .github, subject: "8818181", email: "hubot@example.com", emailVerified: false,
        photoURL: "https://avatars.githubusercontent.com/u/8818181?v=4", screenName: "sandbox-hubot",
        emailIsPublic: true)

    // MARK: Twitter

    /// A Twitter user whose id is above 2^53 (JSON `id` loses precision; use `id_str`).
    public static let twitterUser = SandboxIdentity(
        provider: .twitter, subject: "1457823950123456789", email: "jack@example.com", emailVerified: true,
        displayName: "Jack Sandbox",
        photoURL: "https://pbs.twimg.com/profile_images/1457823950123456789/sandbox_normal.png",
        screenName: "sandbox_jack")
    /// A Twitter user with no confirmed email (`email` is `null` even with `include_email=true`).
    public static let twitterNoEmail = SandboxIdentity(
        provider: .twitter, subject: "6253282", displayName: "Twitter API Sandbox",
        photoURL: "https://pbs.twimg.com/profile_images/6253282/api_normal.png", screenName: "sandbox_api")

    // MARK: Yahoo

    /// A Yahoo account with a verified `@yahoo.com` address and a full profile.
    public static let yahooUser = SandboxIdentity(
        provider: .yahoo, subject: "QX7RJ2M4KZP5WNB3VDLC6TYHEA", email: "yvonne.sandbox@yahoo.com", emailVerified: true,
        displayName: "Yvonne Yodel", givenName: "Yvonne", familyName: "Yodel",
        photoURL: "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg", screenName: "Yvonne", locale: "en-US")
    /// A Yahoo account whose sign-in carries no email (the `email` scope not granted or no address on file).
    public static let yahooNoEmail = SandboxIdentity(
        provider: .yahoo, subject: "B3HN6FQ2TLW8XKCE4PZRUJ7M5D", displayName: "Yusuf Nomail", givenName: "Yusuf",
        familyName: "Nomail", screenName: "Yusuf", locale: "en-GB")

    // MARK: Generic OIDC

    /// A user of the default generic OIDC issuer (``SandboxCredentials/defaultOIDCIssuerName``).
    public static let oidcUser = SandboxIdentity(
        provider: .oidc(SandboxCredentials.defaultOIDCIssuerName), subject: "f3b9c2a1-7d4e-4b8a-a1c2-d3e4f5a6b7c8",
        email: "olivia@example.com", emailVerified: true, displayName: "Olivia Issuer", givenName: "Olivia",
        familyName: "Issuer", photoURL: "https://idp.example.com/avatars/olivia.png", locale: "en")

    /// Every ready-made identity.
    public static let presets: [SandboxIdentity] = [
        appleAlice, appleRelay, appleNoEmail, microsoftWork, microsoftPersonal, microsoftUnverifiedEmail,
        googleGmail, googleWorkspace, googleUnverified, facebookUser, facebookNoEmail, githubUser, githubUnverified,
        twitterUser, twitterNoEmail, yahooUser, yahooNoEmail, oidcUser,
    ]
}
