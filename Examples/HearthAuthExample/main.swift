// hearth-auth-example: signs in anonymously against a Hearth server, prints the uid and the ID token's claims,
// and upgrades the account with an e-mail and password given on the command line.
//
//     swift run hearth-auth-example                                   # anonymous only, http://127.0.0.1:9099
//     swift run hearth-auth-example ada@example.com 's3cret-pass'     # …then link an e-mail and password
//     swift run hearth-auth-example --server http://127.0.0.1:9099 --api-key dev --project demo-hearth ada@example.com pass
//     swift run hearth-auth-example --provider microsoft.com           # …then link Microsoft in the browser
//
// With --provider the system browser opens the provider's page (in development mode the sandbox's consent page:
// pick a test identity, Approve) and the example waits on http://127.0.0.1:<port>/callback for the way back.
//
// The user is kept in memory only, so every run starts with a new anonymous user.
import Foundation
import HearthAuth

let usage = """
    usage: hearth-auth-example [--server URL] [--api-key KEY] [--project ID] [--provider ID] [EMAIL PASSWORD]
    """

var serverURL = ProcessInfo.processInfo.environment["HEARTH_SERVER_URL"] ?? "http://127.0.0.1:9099"
var apiKey = "dev"
var projectID = "demo-hearth"
var providerID: String?
var positional: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--server", "--api-key", "--project", "--provider":
        guard let value = arguments.popFirst() else {
            print(usage)
            exit(64)
        }
        switch argument {
        case "--server": serverURL = value
        case "--api-key": apiKey = value
        case "--project": projectID = value
        default: providerID = value
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        positional.append(argument)
    }
}
guard positional.isEmpty || positional.count == 2 else {
    print(usage)
    exit(64)
}

var options = HearthOptions(apiKey: apiKey, projectID: projectID, serverURL: serverURL)
options.userStore = MemorySignedInUserStore()
HearthApp.configure(options: options)
let auth = Auth.auth()

func describe(_ error: any Error) -> String {
    let error = error as NSError
    let name = error.userInfo[AuthErrorUserInfoNameKey] as? String ?? "\(error.domain) \(error.code)"
    return "\(name): \(error.localizedDescription)"
}

func printClaims(of user: User) async throws {
    let result = try await user.getIDTokenResult()
    print("sign-in provider: \(result.signInProvider), expires \(result.expirationDate)")
    let json = try JSONSerialization.data(withJSONObject: result.claims, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: json, as: UTF8.self))
}

/// Top-level code prefers the completion-handler overloads, so the async calls live in a function.
@MainActor func run() async throws {
    let anonymous = try await auth.signInAnonymously()
    print("signed in anonymously at \(serverURL)")
    print("uid: \(anonymous.user.uid) (anonymous: \(anonymous.user.isAnonymous))")
    try await printClaims(of: anonymous.user)

    if positional.count == 2 {
        let credential = EmailAuthProvider.credential(withEmail: positional[0], password: positional[1])
        let linked = try await anonymous.user.link(with: credential)
        print("upgraded: uid \(linked.user.uid), e-mail \(linked.user.email ?? "-"), anonymous: \(linked.user.isAnonymous)")
        try await printClaims(of: linked.user)
    }

    if let providerID {
        let delegate = try LoopbackBrowser.delegate(openBrowser: { url in
            print("opening \(url.absoluteString)")
            print("(if no browser opens, open that address yourself)")
            try? LoopbackBrowser.openSystemBrowser(url)
        })
        let credential = try await OAuthProvider(providerID: providerID).credential(with: delegate)
        let linked = try await anonymous.user.link(with: credential)
        print("linked \(providerID): uid \(linked.user.uid), e-mail \(linked.user.email ?? "-"), anonymous: \(linked.user.isAnonymous)")
        try await printClaims(of: linked.user)
    }
}

do {
    try await run()
} catch {
    print("failed: \(describe(error))")
    exit(1)
}
