import Foundation
@_spi(Testing) import HearthAuth
import HearthCore
import HearthTesting
import Testing

@Suite struct SessionTests {
    @Test("The signed-in user survives a new Auth on the same file store (0600 file in a 0700 directory)")
    func persistenceAcrossAuthInstances() async throws {
        try await withLiveHearth { live in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-auth-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let name = "persist-\(UUID().uuidString)"
            let first = makeAuth(live, store: FileSignedInUserStore(directory: directory), name: name)
            let created = try await first.createUser(withEmail: "keep@example.com", password: "keep-me-1")
            let uid = created.user.uid
            let token = try await created.user.getIDToken()

            let store = FileSignedInUserStore(directory: directory)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
            #expect(files.count == 1)
            let path = directory.appendingPathComponent(files[0]).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
            #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            _ = store

            // A new process: the app is configured again with the same store.
            await HearthApp.app(name: name)!.delete()
            let second = makeAuth(live, store: FileSignedInUserStore(directory: directory), name: name)
            #expect(second !== first)
            let restored = try #require(second.currentUser)
            #expect(restored.uid == uid)
            #expect(restored.email == "keep@example.com")
            #expect(restored.isAnonymous == false)
            #expect(try await restored.getIDToken() == token)
            // The restored refresh token works.
            live.clock.advance(by: 3_400)
            let refreshed = try await restored.getIDToken()
            #expect(refreshed != token)

            // Signing out removes the file.
            try second.signOut()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.isEmpty)
        }
    }

    @Test("ID tokens are reused while more than five minutes remain, then refreshed once for concurrent callers")
    func refreshWithInjectedClock() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.signInAnonymously().user
            let first = try await user.getIDToken()
            #expect(auth.tokenRefreshCount == 0)

            live.clock.advance(by: 3_600 - 301)  // 301 s left: still fresh
            #expect(try await user.getIDToken() == first)
            #expect(auth.tokenRefreshCount == 0)

            live.clock.advance(by: 2)  // 299 s left: refreshed
            let second = try await user.getIDToken()
            #expect(second != first)
            #expect(auth.tokenRefreshCount == 1)
            let claims = try await user.getIDTokenResult()
            #expect(claims.issuedAtDate == Date(timeIntervalSince1970: live.clock.now.timeIntervalSince1970.rounded(.down)))
            #expect(claims.signInProvider == "anonymous")

            // Concurrent callers share one refresh.
            live.clock.advance(by: 3_500)
            async let a = user.getIDToken()
            async let b = user.getIDToken()
            async let c = user.getIDToken()
            async let d = user.getIDTokenResult()
            let tokens = try await [a, b, c, d.token]
            #expect(Set(tokens).count == 1)
            #expect(tokens[0] != second)
            #expect(auth.tokenRefreshCount == 2)

            // Forcing refreshes even a fresh token.
            let forced = try await user.getIDToken(forcingRefresh: true)
            #expect(auth.tokenRefreshCount == 3)
            _ = forced
        }
    }

    @Test("State and ID-token listeners fire in order; removed listeners stop; AsyncSequences follow")
    func listenersInOrder() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let events = Recorder<String>()
            let state = auth.addStateDidChangeListener { _, user in events.append("state:\(user?.uid ?? "nil")") }
            let token = auth.addIDTokenDidChangeListener { _, user in events.append("token:\(user?.uid ?? "nil")") }
            var stateChanges = auth.authStateChanges.makeAsyncIterator()
            let initial = await stateChanges.next()
            #expect(initial.map { $0 == nil } == true)
            await eventually { events.count == 2 }

            let user = try await auth.signInAnonymously().user
            let uid = user.uid
            #expect(await stateChanges.next()??.uid == uid)
            await eventually { events.count == 4 }
            _ = try await user.link(with: EmailAuthProvider.credential(withEmail: "listen@example.com", password: "listen-1"))
            await eventually { events.count == 5 }
            live.clock.advance(by: 3_500)
            _ = try await user.getIDToken()
            await eventually { events.count == 6 }
            try auth.signOut()
            let signedOut = await stateChanges.next()
            #expect(signedOut.map { $0 == nil } == true)
            await eventually { events.count == 8 }
            #expect(
                events.all == [
                    "state:nil", "token:nil",
                    "state:\(uid)", "token:\(uid)",
                    "token:\(uid)",  // link: new token, same user
                    "token:\(uid)",  // refresh
                    "state:nil", "token:nil",
                ])

            auth.removeStateDidChangeListener(state)
            auth.removeIDTokenDidChangeListener(token)
            _ = try await auth.signInAnonymously()
            try await Task.sleep(for: .milliseconds(200))
            #expect(events.count == 8)
        }
    }

    @Test("listeners on a queue of the caller's: called there, without the main queue, in the order of the changes")
    func listenersOnAQueue() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let queue = DispatchQueue(label: "listener-test")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let events = Recorder<String>()
            let offQueue = Recorder<String>()
            let state = auth.addStateDidChangeListener(queue: queue) { _, user in
                if DispatchQueue.getSpecific(key: key) != true { offQueue.append("state") }
                events.append("state:\(user?.uid ?? "nil")")
            }
            let token = auth.addIDTokenDidChangeListener(queue: queue) { _, user in
                if DispatchQueue.getSpecific(key: key) != true { offQueue.append("token") }
                events.append("token:\(user?.uid ?? "nil")")
            }
            let uid = try await auth.signInAnonymously().user.uid
            try auth.signOut()
            await eventually { events.count == 6 }
            #expect(events.all == ["state:nil", "token:nil", "state:\(uid)", "token:\(uid)", "state:nil", "token:nil"])
            #expect(offQueue.count == 0)
            auth.removeStateDidChangeListener(state)
            auth.removeIDTokenDidChangeListener(token)
            _ = try await auth.signInAnonymously()
            try await Task.sleep(for: .milliseconds(200))
            #expect(events.count == 6)
        }
    }

    @Test("idTokenChanges: the current user now, then every new ID token (sign-in, link, refresh), then nil at sign-out")
    func idTokenChangesSequence() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            var changes = auth.idTokenChanges.makeAsyncIterator()
            #expect(await changes.next().map { $0 == nil } == true)

            let user = try await auth.signInAnonymously().user
            let signedIn = await changes.next()
            #expect(signedIn??.uid == user.uid)
            let firstToken = try await user.getIDToken()

            _ = try await user.link(with: EmailAuthProvider.credential(withEmail: "stream@example.com", password: "stream-1"))
            let linked = await changes.next()
            #expect(linked??.uid == user.uid)
            #expect(linked??.isAnonymous == false)
            let linkedToken = try await user.getIDToken()
            #expect(linkedToken != firstToken)

            // A token that is still fresh is no change; a refresh is.
            #expect(try await user.getIDToken() == linkedToken)
            live.clock.advance(by: 3_400)
            let refreshedToken = try await user.getIDToken()
            #expect(refreshedToken != linkedToken)
            let refreshed = await changes.next()
            #expect(refreshed??.uid == user.uid)

            try auth.signOut()
            #expect(await changes.next().map { $0 == nil } == true)

            // Each sequence gets the current user first, as a new listener does.
            let other = try await auth.signIn(withEmail: "stream@example.com", password: "stream-1").user
            var late = auth.idTokenChanges.makeAsyncIterator()
            #expect(await late.next()??.uid == other.uid)
            #expect(await changes.next()??.uid == other.uid)
        }
    }

    #if !canImport(Security)
    @Test("Without a store, the user is kept in $XDG_DATA_HOME/hearth-auth (0700) in a 0600 file, else ~/.local/share/hearth-auth")
    func defaultPersistenceDirectory() async throws {
        // The environment is passed in, never changed: setenv while other tests start processes
        // corrupts their copy of it.
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-xdg-\(UUID().uuidString)", isDirectory: true)
        let home = "/home/someone"
        let fallback = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/hearth-auth", isDirectory: true)
        #expect(FileSignedInUserStore.defaultDirectory(environment: ["HOME": home]) == fallback)
        // The XDG spec ignores a relative XDG_DATA_HOME.
        #expect(FileSignedInUserStore.defaultDirectory(environment: ["HOME": home, "XDG_DATA_HOME": "relative/data"]) == fallback)
        #expect(
            FileSignedInUserStore.defaultDirectory(environment: ["HOME": home, "XDG_DATA_HOME": dataHome.path])
                == dataHome.appendingPathComponent("hearth-auth", isDirectory: true))

        // Without a store, the SDK uses the default directory of this process's environment.
        let directory = FileSignedInUserStore.defaultDirectory()
        let existedBefore = FileManager.default.fileExists(atPath: directory.path)
        defer { if !existedBefore { try? FileManager.default.removeItem(at: directory) } }
        try await withLiveHearth { live in
            let name = "xdg-\(UUID().uuidString)"
            let auth = makeAuth(live, store: nil, name: name)
            let uid = try await auth.signInAnonymously().user.uid
            let file = directory.appendingPathComponent("hearth_auth_\(live.projectID)_\(name)_user.json").path
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            if !existedBefore {
                #expect((try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            }
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains(uid))

            // A new launch with the default store finds the user.
            await HearthApp.app(name: name)!.delete()
            let again = makeAuth(live, store: nil, name: name)
            #expect(again.currentUser?.uid == uid)
            try again.signOut()
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }
    #endif

    @Test("Signed out locally when the server says the account is gone, disabled, or its tokens revoked")
    func signedOutWhenSessionEnds() async throws {
        try await withLiveHearth { live in
            // Deleted elsewhere: lookup says USER_NOT_FOUND, refresh says INVALID_REFRESH_TOKEN.
            let deleter = makeAuth(live)
            let onLookup = makeAuth(live)
            let onRefresh = makeAuth(live)
            let victim = try await deleter.createUser(withEmail: "gone@example.com", password: "gone-pass")
            _ = try await onLookup.signIn(withEmail: "gone@example.com", password: "gone-pass")
            _ = try await onRefresh.signIn(withEmail: "gone@example.com", password: "gone-pass")
            try await victim.user.delete()
            #expect(deleter.currentUser == nil)
            #expect(await authError { try await onLookup.currentUser!.reload() } == .userNotFound)
            #expect(onLookup.currentUser == nil)
            #expect(await authError { _ = try await onRefresh.currentUser!.getIDToken(forcingRefresh: true) } == .invalidUserToken)
            #expect(onRefresh.currentUser == nil)

            // Disabled by an administrator: refresh says USER_DISABLED.
            let disabled = makeAuth(live)
            let user = try await disabled.createUser(withEmail: "off@example.com", password: "off-pass").user
            try await live.services.store.updateUser(uid: user.uid, session: nil) { $0.disabled = true }
            #expect(await authError { _ = try await user.getIDToken(forcingRefresh: true) } == .userDisabled)
            #expect(disabled.currentUser == nil)

            // Password changed on another device: the old session's refresh says TOKEN_EXPIRED.
            let changer = makeAuth(live)
            let stale = makeAuth(live)
            _ = try await changer.createUser(withEmail: "moved@example.com", password: "old-pass")
            _ = try await stale.signIn(withEmail: "moved@example.com", password: "old-pass")
            live.clock.advance(by: 1)
            try await changer.currentUser!.updatePassword(to: "new-pass")
            #expect(await authError { _ = try await stale.currentUser!.getIDToken(forcingRefresh: true) } == .userTokenExpired)
            #expect(stale.currentUser == nil)
            // The device that changed it holds the new session.
            _ = try await changer.currentUser!.getIDToken(forcingRefresh: true)
            #expect(changer.currentUser != nil)
        }
    }

    @Test("Network failures give networkError and keep the user signed in")
    func networkFailureKeepsUser() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.signInAnonymously().user
            auth.useEmulator(withHost: "127.0.0.1", port: 1)  // nothing listens there
            #expect(auth.serverURL == "http://127.0.0.1:1")
            let error = try #require(await nsError { _ = try await user.getIDToken(forcingRefresh: true) })
            #expect(error.code == AuthErrorCode.networkError.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_NETWORK_REQUEST_FAILED")
            #expect(error.userInfo[NSUnderlyingErrorKey] != nil)
            #expect(auth.currentUser === user)
            #expect(await authError { try await user.reload() } == .networkError)
            #expect(auth.currentUser === user)

            auth.useEmulator(withHost: live.host, port: live.port)
            _ = try await user.getIDToken(forcingRefresh: true)
        }
    }

    @Test func profileEmailAndPasswordUpdates() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "profile@example.com", password: "profile-1").user
            let change = user.createProfileChangeRequest()
            change.displayName = "Pat Profile"
            change.photoURL = URL(string: "https://example.com/pat.png")
            try await change.commitChanges()
            #expect(user.displayName == "Pat Profile")
            #expect(user.photoURL?.absoluteString == "https://example.com/pat.png")

            try await user.updateEmail(to: "renamed@example.com")
            #expect(user.email == "renamed@example.com")
            try await user.updatePassword(to: "profile-2")
            try auth.signOut()
            let again = try await auth.signIn(withEmail: "renamed@example.com", password: "profile-2")
            #expect(again.user.uid == user.uid)
            #expect(again.user.displayName == "Pat Profile")
            #expect(again.user.metadata.creationDate != nil)
            #expect(again.user.metadata.lastSignInDate != nil)

            let removal = again.user.createProfileChangeRequest()
            removal.displayName = nil
            try await removal.commitChanges()
            #expect(again.user.displayName == nil)

            // Old enough sign-in: sensitive changes need a recent login.
            live.clock.advance(by: 600)
            #expect(await authError { try await again.user.updatePassword(to: "profile-3") } == .requiresRecentLogin)
            #expect(auth.currentUser != nil)
            _ = try await again.user.reauthenticate(with: EmailAuthProvider.credential(withEmail: "renamed@example.com", password: "profile-2"))
            try await again.user.updatePassword(to: "profile-3")
            try await again.user.delete()
            #expect(auth.currentUser == nil)
        }
    }
}
