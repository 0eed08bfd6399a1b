/// The script of ``PasskeyPage``: the four passkey endpoints and `navigator.credentials`, with WebAuthn's binary fields
/// converted from and to base64url by hand (so that browsers without `parseCreationOptionsFromJSON` work too); in the
/// tenant the page's `?tenant=` names, if any.
enum PasskeyPageScript {
    static let source = #"""
        "use strict";
        let idToken = null;
        const element = (id) => document.getElementById(id);
        const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
        const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        const descriptors = (list) => (list || []).map((d) => ({ ...d, id: bytes(d.id) }));

        // `?tenant=<id>`: the page works in that tenant (every call names it), else in the project.
        const tenantId = new URLSearchParams(location.search).get("tenant");

        async function call(path, body) {
            if (tenantId) body = { ...body, tenantId };
            const response = await fetch(path + "?key=development", {
                method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
            });
            const answer = await response.json();
            if (!response.ok) throw new Error(answer.error ? answer.error.message : "HTTP " + response.status);
            return answer;
        }

        function show(token, status) {
            idToken = token;
            let uid = "none", provider = "none";
            if (token) {
                const claims = JSON.parse(new TextDecoder().decode(bytes(token.split(".")[1])));
                uid = claims.sub;
                provider = claims.firebase.sign_in_provider;
            }
            element("uid").textContent = uid;
            element("provider").textContent = provider;
            element("id-token").textContent = token || "";
            element("status").textContent = status;
            element("error").textContent = "";
        }

        function credentialJSON(credential) {
            const response = credential.response, json = { id: credential.id, rawId: text(credential.rawId), type: credential.type,
                authenticatorAttachment: credential.authenticatorAttachment, clientExtensionResults: {},
                response: { clientDataJSON: text(response.clientDataJSON) } };
            if (response.attestationObject) {
                json.response.attestationObject = text(response.attestationObject);
                json.response.transports = response.getTransports ? response.getTransports() : [];
            } else {
                json.response.authenticatorData = text(response.authenticatorData);
                json.response.signature = text(response.signature);
                if (response.userHandle) json.response.userHandle = text(response.userHandle);
            }
            return json;
        }

        async function signUp() {
            const answer = await call("/v1/accounts:signUp", { returnSecureToken: true });
            show(answer.idToken, "Signed up anonymously.");
        }

        async function enrol() {
            if (!idToken) throw new Error("Sign up or sign in first.");
            const { credentialCreationOptions: options } = await call("/v2/accounts/passkeyEnrollment:start", { idToken });
            const credential = await navigator.credentials.create({ publicKey: { ...options, challenge: bytes(options.challenge),
                user: { ...options.user, id: bytes(options.user.id) }, excludeCredentials: descriptors(options.excludeCredentials) } });
            const answer = await call("/v2/accounts/passkeyEnrollment:finalize",
                { idToken, name: element("name").value, authenticatorRegistrationResponse: credentialJSON(credential) });
            show(answer.idToken, "Passkey enrolled.");
        }

        async function signIn() {
            const { credentialRequestOptions: options } = await call("/v2/accounts/passkeySignIn:start", {});
            const credential = await navigator.credentials.get({ publicKey: { ...options, challenge: bytes(options.challenge),
                allowCredentials: descriptors(options.allowCredentials) } });
            const answer = await call("/v2/accounts/passkeySignIn:finalize", { authenticatorAuthenticationResponse: credentialJSON(credential) });
            show(answer.idToken, "Signed in with a passkey.");
        }

        function handle(action) {
            return async () => {
                element("error").textContent = "";
                try { await action(); } catch (error) { element("error").textContent = error.name + ": " + error.message; }
                // How many actions have finished, for a test to wait on.
                document.body.dataset.finished = String(Number(document.body.dataset.finished || 0) + 1);
            };
        }

        document.addEventListener("DOMContentLoaded", () => {
            element("tenant").textContent = tenantId || "none (the project)";
            element("sign-up").addEventListener("click", handle(signUp));
            element("enrol").addEventListener("click", handle(enrol));
            element("sign-out").addEventListener("click", handle(async () => show(null, "Signed out.")));
            element("sign-in").addEventListener("click", handle(signIn));
        });
        """#
}
