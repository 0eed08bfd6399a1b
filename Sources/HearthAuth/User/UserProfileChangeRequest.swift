import Foundation
import HearthWire

/// Changes to a user's display name and photo URL, sent together by ``commitChanges(completion:)``.
public final class UserProfileChangeRequest: Sendable {
    private let user: User
    private let changes = Locked<(displayName: String??, photoURL: URL??, committed: Bool)>((nil, nil, false))

    init(user: User) {
        self.user = user
    }

    /// The new display name; setting nil removes it.
    public var displayName: String? {
        get { changes.withLock { $0.displayName ?? nil } }
        set { changes.withLock { $0.displayName = .some(newValue) } }
    }

    /// The new photo URL; setting nil removes it.
    public var photoURL: URL? {
        get { changes.withLock { $0.photoURL ?? nil } }
        set { changes.withLock { $0.photoURL = .some(newValue) } }
    }

    /// Sends the changes. A request can be committed once.
    public func commitChanges(completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.commitChanges() }
    }

    public func commitChanges() async throws {
        let (displayName, photoURL, committed) = changes.withLock { state in
            let snapshot = state
            state.committed = true
            return snapshot
        }
        if committed {
            throw AuthErrorFactory.error(.internalError, message: "A profile change request can be committed only once.")
        }
        var request = UpdateRequest(idToken: nil)
        var deleted: [WireEnum<UserAttributeNames>] = []
        if let displayName {
            if let name = displayName { request.displayName = name } else { deleted.append("DISPLAY_NAME") }
        }
        if let photoURL {
            if let url = photoURL { request.photoUrl = url.absoluteString } else { deleted.append("PHOTO_URL") }
        }
        if !deleted.isEmpty { request.deleteAttribute = deleted }
        if displayName == nil, photoURL == nil { return }
        try await user.commit(request)
    }
}
