import Foundation
import HearthAdmin
import Hummingbird
import NotesBackend

// Serves the notes example: `HEARTH_PROJECT_ID=demo-hearth HEARTH_URL=http://127.0.0.1:9099 notes-backend`,
// then `curl -H "Authorization: Bearer $ID_TOKEN" http://127.0.0.1:8080/notes`.
let environment = ProcessInfo.processInfo.environment
let projectID = environment["HEARTH_PROJECT_ID"] ?? "demo-hearth"
let server = URL(string: environment["HEARTH_URL"] ?? "http://127.0.0.1:9099")!
let credential: Credential =
    environment["HEARTH_CREDENTIALS"].map { .serviceAccount(file: URL(fileURLWithPath: $0)) } ?? .emulatorOwner
let port = environment["PORT"].flatMap(Int.init) ?? 8080

let admin = try HearthAdmin(projectID: projectID, server: server, credential: credential)
let app = Application(
    router: buildNotesRouter(admin: admin, checkRevoked: environment["CHECK_REVOKED"] == "1"),
    configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
