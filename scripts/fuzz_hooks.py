"""Schemathesis hooks for scripts/fuzz.sh.

Counts every request schemathesis sends (per operation and status, network errors and time-outs apart) and
writes the counts to $HEARTH_FUZZ_COUNTS when the run ends. So that the fuzzer gets past the first checks
of each handler, it also puts real values into part of the generated requests: the project id on the admin
routes, the uids of real users in the admin `lookup`, `update`, `delete` and `batchDelete`, ID and refresh tokens of real users, the provider sandbox's credentials, a known account's e-mail,
development-mode custom tokens, a pending browser sign-in's state, and real e-mail action codes (from an
administrator's `sendOobCode` with `returnOobLink`, or from the development outbox's listing). After a PATCH of the
project's config succeeds,
it puts the settings back as the run found them. The requests made to obtain those values are counted apart ("setup").
"""

import atexit
import json
import os
import random
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

import schemathesis

BASE = os.environ["HEARTH_FUZZ_URL"]
PROJECT = os.environ.get("HEARTH_FUZZ_PROJECT", "demo-hearth")
COUNTS_FILE = os.environ["HEARTH_FUZZ_COUNTS"]
ACCOUNT_EMAIL = "fuzz-known@example.com"
ACCOUNT_PASSWORD = "fuzz-known-password"

# Hypothesis seeds the global `random` the same way before every test case: the hooks draw from their own.
_rng = random.Random(os.environ.get("HEARTH_FUZZ_SEED"))
_lock = threading.Lock()
_responses = Counter()  # (operation, status) -> count
_network_errors = Counter()  # (operation, kind) -> count
_setup = Counter()  # what the hooks sent themselves, by outcome
_tokens = []  # (idToken, refreshToken, localId) of anonymous users
_server_errors = []  # the first 5xx answers, with a curl command each
_substituted = Counter()  # operation -> requests the hooks put real values into
_messages = Counter()  # (operation, status, error message) -> count, to see how deep the requests got


def _send(request):
    """Sends one of the hooks' own requests, counting its answer: (status, parsed JSON or None)."""
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    except OSError:
        with _lock:
            _setup["network-error"] += 1
        return None, None
    with _lock:
        _setup[f"{status // 100}xx"] += 1
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


def _post(path, body, content_type="application/json"):
    """A request of the hooks' own: (status, parsed JSON or None)."""
    data = json.dumps(body).encode() if content_type == "application/json" else urllib.parse.urlencode(body).encode()
    return _send(urllib.request.Request(BASE + path, data=data, headers={"content-type": content_type, "x-goog-api-key": "fuzz"}))


def _real_tokens(fresh=False):
    """The tokens of a real anonymous user: a new one, or one of a small pool that nothing changes."""
    with _lock:
        if not fresh and len(_tokens) >= 16 and _rng.random() > 0.1:
            return _rng.choice(_tokens)
    status, body = _post("/v1/accounts:signUp", {"returnSecureToken": True})
    if status != 200 or not body:
        return None
    pair = (body["idToken"], body["refreshToken"], body["localId"])
    if not fresh:
        with _lock:
            _tokens.append(pair)
            if len(_tokens) > 32:
                _tokens.pop(0)
    return pair


_known_account_ready = False


def _known_account():
    global _known_account_ready
    if not _known_account_ready:
        _post("/v1/accounts:signUp", {"email": ACCOUNT_EMAIL, "password": ACCOUNT_PASSWORD, "returnSecureToken": True})
        _known_account_ready = True


def _pending_state():
    """The state of a browser sign-in started now with a sandbox provider."""
    provider = _rng.choice(["google.com", "apple.com", "microsoft.com", "github.com", "facebook.com", "twitter.com"])
    status, body = _post("/v1/accounts:createAuthUri", {"providerId": provider, "continueUri": "com.example.fuzz:/callback"})
    if status != 200 or not body or "authUri" not in body:
        return None
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(body["authUri"]).query)
    values = query.get("state") or query.get("oauth_token")
    return values[0] if values else None


def _sandbox_credential():
    """A signInWithIdp body from the development server's provider sandbox."""
    provider = _rng.choice(["google.com", "apple.com", "microsoft.com", "github.com", "facebook.com", "twitter.com"])
    request = urllib.request.Request(f"{BASE}/sandbox/credentials/{provider}?as=request&nonce=fuzz-nonce")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
        with _lock:
            _setup["2xx"] += 1
        return json.loads(text)
    except (OSError, ValueError):
        with _lock:
            _setup["sandbox-failure"] += 1
        return None


_ACTION_KINDS = {
    # requestType -> the action page's mode
    "PASSWORD_RESET": "resetPassword",
    "VERIFY_EMAIL": "verifyEmail",
    "EMAIL_SIGNIN": "signIn",
    "VERIFY_AND_CHANGE_EMAIL": "verifyAndChangeEmail",
}
_MODES = list(_ACTION_KINDS.values()) + ["recoverEmail", "sendPasswordReset"]
_CONTINUE_URL = "http://localhost/fuzz-done"
_email_users = 0


def _email_user():
    """A new user with an e-mail address and no password, created by the administrator: (uid, email)."""
    global _email_users
    with _lock:
        _email_users += 1
        email = f"fuzz-mail-{_email_users}-{_rng.randrange(10**9)}@example.com"
    status, body = _admin("POST", f"/v1/projects/{PROJECT}/accounts", {"email": email})
    if status != 200 or not body or "localId" not in body:
        return None
    return body["localId"], email


def _email_user_tokens():
    """A new user with an e-mail address, signed in just now (a development-mode custom token): (idToken, email)."""
    user = _email_user()
    if user is None:
        return None
    status, body = _post("/v1/accounts:signInWithCustomToken", {"token": json.dumps({"uid": user[0]}), "returnSecureToken": True})
    if status != 200 or not body or "idToken" not in body:
        return None
    return body["idToken"], user[1]


def _action_code(kind=None):
    """A real, unused action code: (requestType, code, email). Mostly from an administrator's `sendOobCode` with
    `returnOobLink` (no mail, no mail limit); sometimes mailed and read back from the development outbox's listing."""
    kind = kind or _rng.choice(list(_ACTION_KINDS))
    user = _email_user()
    if user is None:
        return None
    body = {"requestType": kind, "email": user[1], "continueUrl": _CONTINUE_URL}
    if kind == "VERIFY_AND_CHANGE_EMAIL":
        body["newEmail"] = "new-" + user[1]
    if kind == "PASSWORD_RESET" and _rng.random() < 0.1:
        # The client's way: a mail, then the emulator's listing.
        status, _ = _post("/v1/accounts:sendOobCode", body)
        if status != 200:
            return None
        status, listing = _send(urllib.request.Request(f"{BASE}/emulator/v1/projects/{PROJECT}/oobCodes"))
        codes = [c for c in (listing or {}).get("oobCodes", []) if c.get("email") == user[1]] if status == 200 else []
        return (kind, codes[-1]["oobCode"], user[1]) if codes else None
    status, answer = _admin("POST", f"/v1/projects/{PROJECT}/accounts:sendOobCode", dict(body, returnOobLink=True))
    if status != 200 or not answer or "oobCode" not in answer:
        return None
    return kind, answer["oobCode"], user[1]


def _substitute_action_page(case, label, body):
    """The action page: a real code with its mode (sometimes another mode), in the query (GET) or the form (POST)."""
    if _rng.random() >= 0.5:
        return False
    found = _action_code()
    if found is None:
        return False
    kind, code, email = found
    mode = _ACTION_KINDS[kind] if _rng.random() < 0.8 else _rng.choice(_MODES)
    fields = {"mode": mode, "oobCode": code}
    if _rng.random() < 0.5:
        fields["continueUrl"] = _CONTINUE_URL
    if label.startswith("GET"):
        case.query = dict(case.query or {}, **fields)
        return True
    generated = body if isinstance(body, dict) else {}
    form = {k: v for k, v in generated.items() if _rng.random() < 0.3 and k not in ("mode", "oobCode")}
    form.update(fields)
    if mode == "resetPassword" and _rng.random() < 0.7:
        password = generated.get("newPassword") if isinstance(generated.get("newPassword"), str) and _rng.random() < 0.5 else "fuzz new password"
        form["newPassword"] = password
        form["confirmPassword"] = password
    elif mode == "sendPasswordReset":
        form["email"] = email
    case.body = form
    return True


def _operation(case):
    return case.operation.label


@schemathesis.hook
def before_call(context, case, kwargs):
    _substitute(case)


def _substitute(case):
    label = _operation(case)
    _remember_config()
    # A copy: the generated value itself stays as Hypothesis made it.
    body = dict(case.body) if isinstance(case.body, dict) else None
    substituted = True
    if " /v1/projects/" in label:
        substituted = _substitute_admin_v1(case, label, body)
    elif " /v2/projects/" in label:
        if isinstance(case.path_parameters, dict) and _rng.random() < 0.85:
            case.path_parameters = dict(case.path_parameters, project=PROJECT)
        else:
            substituted = False
    elif label.endswith("/__/auth/handler"):
        state = _pending_state() if _rng.random() < 0.4 and (label.startswith("GET") or body is not None or case.body is None) else None
        if state is not None and label.startswith("GET"):
            case.query = dict(case.query or {}, state=state)
        elif state is not None:
            body = dict(body or {}, state=state)
        else:
            substituted = False
    elif label.endswith("/__/auth/action"):
        substituted = _substitute_action_page(case, label, body)
        body = None  # the form, if any, is set already
    elif label.endswith("/oobCodes"):
        if isinstance(case.path_parameters, dict) and _rng.random() < 0.85:
            case.path_parameters = dict(case.path_parameters, project=PROJECT)
        else:
            substituted = False
    elif body is None:
        substituted = False
    elif label.endswith(":sendOobCode") and _rng.random() < 0.5:
        _substitute_send_oob_code(body)
    elif label.endswith((":resetPassword", ":signInWithEmailLink")) and _rng.random() < 0.5:
        sign_in = label.endswith(":signInWithEmailLink")
        found = _action_code("EMAIL_SIGNIN" if sign_in and _rng.random() < 0.8 else None)
        if found:
            body["oobCode"] = found[1]
            if sign_in and _rng.random() < 0.8:
                body["email"] = found[2]
            if sign_in and _rng.random() < 0.2:
                tokens = _real_tokens(fresh=True)
                if tokens:
                    body["idToken"] = tokens[0]
            elif not sign_in and _rng.random() < 0.5 and "newPassword" not in body:
                body["newPassword"] = "fuzz new password"
        substituted = found is not None
    elif label.endswith(":update") and _rng.random() < 0.2:
        # applyActionCode: a code, no ID token.
        found = _action_code(_rng.choice(["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL", "VERIFY_EMAIL", "PASSWORD_RESET"]))
        if found:
            body["oobCode"] = found[1]
            body.pop("idToken", None)
            body.pop("localId", None)
        substituted = found is not None
    elif label.endswith(":signInWithIdp") and _rng.random() < 0.4:
        credential = _sandbox_credential()
        if credential:
            # The real credential, with some of the generated fields kept.
            kept = {k: v for k, v in body.items() if _rng.random() < 0.3 and k not in ("postBody", "requestUri")}
            body.clear()
            body.update(credential)
            body.update(kept)
            if _rng.random() < 0.3:
                tokens = _real_tokens()
                if tokens:
                    body["idToken"] = tokens[0]
        substituted = credential is not None
    elif label.endswith((":update", ":delete", ":signUp")) and _rng.random() < 0.5:
        # These change or delete the user: a new one each time, so that the pool's tokens stay valid.
        tokens = _real_tokens(fresh=True)
        if tokens:
            body["idToken"] = tokens[0]
        substituted = tokens is not None
    elif label.endswith((":lookup", ":signInWithIdp")) and _rng.random() < 0.5:
        tokens = _real_tokens()
        if tokens:
            body["idToken"] = tokens[0]
        substituted = tokens is not None
    elif label.endswith("/v1/token") and _rng.random() < 0.5:
        tokens = _real_tokens()
        if tokens:
            key = "refresh_token" if "refresh_token" in body or "grant_type" in body else "refreshToken"
            body[key] = tokens[1]
        substituted = tokens is not None
    elif label.endswith(":signInWithPassword") and _rng.random() < 0.3:
        _known_account()
        body["email"] = ACCOUNT_EMAIL
        if _rng.random() < 0.3:
            body["password"] = ACCOUNT_PASSWORD
    elif label.endswith(":signInWithCustomToken") and _rng.random() < 0.4:
        # Development mode accepts a bare JSON custom token, as the Admin SDKs send to an emulator.
        generated = body.get("token")
        token = {"uid": generated if isinstance(generated, str) and generated else "fuzz-uid"}
        if _rng.random() < 0.5:
            token["claims"] = {k: v for k, v in body.items() if k != "token"}
        body["token"] = json.dumps(token)
    else:
        substituted = False
    if substituted:
        if body is not None:
            case.body = body
        with _lock:
            _substituted[label] += 1


def _substitute_send_oob_code(body):
    """`sendOobCode` as a client sends it: a valid request type, with a real address or a real user's ID token."""
    kind = body.get("requestType") if _rng.random() < 0.2 else _rng.choice(list(_ACTION_KINDS))
    body["requestType"] = kind
    if kind in ("VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL"):
        signed_in = _email_user_tokens()
        if signed_in:
            body["idToken"] = signed_in[0]
        if kind == "VERIFY_AND_CHANGE_EMAIL" and _rng.random() < 0.7:
            body["newEmail"] = f"fuzz-new-{_rng.randrange(10**9)}@example.com"
    else:
        # The known account soon reaches its limit of reset mails: mostly a new account's address.
        draw = _rng.random()
        user = _email_user() if draw < 0.6 else None
        if user:
            body["email"] = user[1]
        elif draw < 0.8:
            _known_account()
            body["email"] = ACCOUNT_EMAIL
        else:
            body["email"] = f"fuzz-nobody-{_rng.randrange(10**6)}@example.com"
    if _rng.random() < 0.6:
        body["continueUrl"] = _CONTINUE_URL
    if _rng.random() < 0.7:
        body.pop("returnOobLink", None)


def _substitute_admin_v1(case, label, body):
    """The admin API's v1 routes: the project id, and the uids or the ID token of real users in the body."""
    if not isinstance(case.path_parameters, dict) or _rng.random() >= 0.85:
        return False
    case.path_parameters = dict(case.path_parameters, project=PROJECT)
    if body is not None and _rng.random() < 0.5:
        if label.endswith((":update", ":delete")):
            # These may disable or delete the user: a new one each time, so that the pool's tokens stay valid.
            tokens = _real_tokens(fresh=True)
            if tokens:
                body["localId"] = tokens[2]
        elif label.endswith(":lookup"):
            tokens = _real_tokens()
            if tokens:
                generated = body.get("localId") if isinstance(body.get("localId"), list) else []
                body["localId"] = [tokens[2]] + [v for v in generated if _rng.random() < 0.5][:3]
        elif label.endswith(":batchDelete"):
            tokens = _real_tokens(fresh=True)
            if tokens:
                body["localIds"] = [tokens[2]]
        elif label.endswith(":sendOobCode"):
            user = _email_user()
            if user:
                body["email"] = user[1]
                body["requestType"] = _rng.choice(list(_ACTION_KINDS))
                if body["requestType"] == "VERIFY_AND_CHANGE_EMAIL":
                    body["newEmail"] = "new-" + user[1]
                if body["requestType"] == "EMAIL_SIGNIN" or _rng.random() < 0.3:
                    body["continueUrl"] = _CONTINUE_URL
                if _rng.random() < 0.8:
                    body["returnOobLink"] = True
        elif label.endswith(":createSessionCookie"):
            tokens = _real_tokens()
            if tokens:
                body["idToken"] = tokens[0]
        case.body = body
    return True


def _admin(method, path, body=None):
    """An administrator's request of the hooks' own: (status, parsed JSON or None)."""
    data = json.dumps(body).encode() if body is not None else None
    return _send(urllib.request.Request(
        BASE + path, data=data, method=method, headers={"content-type": "application/json", "authorization": "Bearer owner"}
    ))


_CONFIG_PATH = f"/v2/projects/{PROJECT}/config"
_initial_config = None


def _restore_config():
    """Puts back the project's sign-in settings as the run found them: a generated PATCH of the config may turn
    off anonymous or e-mail sign-up, and every later request would then stop at ADMIN_ONLY_OPERATION."""
    global _initial_config
    if _initial_config is None:
        return
    _admin("PATCH", _CONFIG_PATH, _initial_config)


def _remember_config():
    global _initial_config
    if _initial_config is None:
        status, body = _admin("GET", _CONFIG_PATH)
        if status == 200 and isinstance(body, dict):
            body.pop("name", None)
            (body.get("signIn") or {}).pop("hashConfig", None)
            _initial_config = body


@schemathesis.hook
def after_call(context, case, response):
    if _operation(case).startswith("PATCH /v2/projects/{project}/config") and 200 <= response.status_code < 300:
        _restore_config()
    with _lock:
        _responses[(_operation(case), response.status_code)] += 1
        if response.status_code >= 400:
            try:
                message = json.loads(response.content)["error"]["message"][:100]
            except Exception:  # not the error envelope (the handler's pages)
                message = response.content[:60].decode("utf-8", "replace")
            _messages[(_operation(case), response.status_code, message)] += 1
        if response.status_code >= 500 and len(_server_errors) < 50:
            try:
                curl = case.as_curl_command(headers=dict(response.request.headers))
            except Exception:  # the command is a courtesy; the count is what matters
                curl = None
            _server_errors.append({"operation": _operation(case), "status": response.status_code, "curl": curl, "body": response.content[:1000].decode("utf-8", "replace")})


@schemathesis.hook
def after_network_error(context, case, request):
    import sys

    kind = type(sys.exc_info()[1]).__name__ if sys.exc_info()[1] is not None else "error"
    with _lock:
        _network_errors[(_operation(case), kind)] += 1


@atexit.register
def _write_counts():
    with _lock:
        result = {
            "responses": [{"operation": op, "status": status, "count": n} for (op, status), n in sorted(_responses.items())],
            "network_errors": [{"operation": op, "kind": kind, "count": n} for (op, kind), n in sorted(_network_errors.items())],
            "setup": dict(_setup),
            "substituted": dict(_substituted),
            "server_errors": list(_server_errors),
            "messages": [{"operation": op, "status": status, "message": m, "count": n} for (op, status, m), n in sorted(_messages.items())],
        }
    with open(COUNTS_FILE, "w") as file:
        json.dump(result, file, indent=1)
