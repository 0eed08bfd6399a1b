import Foundation
import HearthAdmin
import HearthAdminHummingbird
import Hummingbird

/// The request context of the notes backend: Hummingbird's basic context plus the caller's verified identity.
public struct NotesRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: DecodedToken?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// A note as stored and served.
public struct Note: Codable, Sendable, Equatable, ResponseEncodable {
    public let id: Int
    public let text: String
}

/// What `POST /notes` takes.
public struct NewNote: Codable, Sendable {
    public let text: String
}

/// Every user's notes, kept in memory and keyed by the verified uid: a user's own notes are the only ones any
/// request of theirs can reach.
public actor NoteStore {
    private var notes: [String: [Note]] = [:]
    private var nextID = 1

    public init() {}

    public func notes(of uid: String) -> [Note] { notes[uid] ?? [] }

    public func add(_ text: String, for uid: String) -> Note {
        let note = Note(id: nextID, text: text)
        nextID += 1
        notes[uid, default: []].append(note)
        return note
    }
}

/// The notes API: `GET /notes` lists the caller's notes, `POST /notes {"text": …}` adds one. Every route requires
/// `Authorization: Bearer <ID token>`; the uid comes from the verified token, never from the request.
/// - Parameter checkRevoked: ask Hearth on every request whether the user is disabled or signed out everywhere.
public func buildNotesRouter(admin: HearthAdmin, store: NoteStore = NoteStore(), checkRevoked: Bool = false) -> Router<NotesRequestContext> {
    let router = Router(context: NotesRequestContext.self)
    let notes = router.group("notes").add(middleware: IDTokenAuthenticator<NotesRequestContext>(admin: admin, checkRevoked: checkRevoked))
    notes.get { _, context -> [Note] in
        let uid = try context.requireIdentity().uid
        return await store.notes(of: uid)
    }
    notes.post { request, context -> EditedResponse<Note> in
        let uid = try context.requireIdentity().uid
        let input = try await request.decode(as: NewNote.self, context: context)
        guard !input.text.isEmpty, input.text.utf8.count <= 10_000 else {
            throw HTTPError(.badRequest, message: "A note has 1 to 10000 bytes of text.")
        }
        return EditedResponse(status: .created, response: await store.add(input.text, for: uid))
    }
    return router
}
