// What the seed programs share: checks that print one line each, bounded waits (a hang is a failure, not a
// stuck test), and the runs that are the same in both API generations. Header-only, so that it compiles with
// the generation of the program that includes it.
#ifndef HEARTH_SEED_SUPPORT_H_
#define HEARTH_SEED_SUPPORT_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "firebase/app.h"
#include "firebase/auth.h"

namespace seed {

inline int& Failures() {
  static int failures = 0;
  return failures;
}

inline const char* Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The guide's `Wait(100)`.
inline void Wait(int milliseconds) { std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds)); }

inline void Check(bool passed, const std::string& what) {
  std::printf("%s: %s\n", passed ? "ok" : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!passed) Failures()++;
}

inline void Report(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

inline int Finish() {
  Report(Failures() == 0 ? "all passed" : std::to_string(Failures()) + " failed");
  return Failures() == 0 ? 0 : 1;
}

inline bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

template <typename T>
std::string Describe(const std::string& what, const firebase::Future<T>& future) {
  return what + " (error " + std::to_string(future.error()) + ": " + future.error_message() + ")";
}

// Every awaited future, kept to the end of the program: a result lives as long as a future refers to it, and
// the runs read results of futures they did not keep in a variable.
inline std::vector<firebase::FutureBase>& Kept() {
  static std::vector<firebase::FutureBase> kept;
  return kept;
}

// Waits at most two minutes; with `must_succeed`, an error is a failure too.
template <typename T>
const T* Await(const firebase::Future<T>& future, const std::string& what, bool must_succeed = true) {
  Kept().push_back(future);
  if (!future.Wait(120000)) {
    Check(false, what + ": still pending after 120 s");
    return nullptr;
  }
  if (must_succeed && future.error() != firebase::auth::kAuthErrorNone) {
    Check(false, Describe(what, future));
    return nullptr;
  }
  return future.result();
}

// The provider ids of a user, sorted, comma-separated.
template <typename UserLike>
std::string Providers(const UserLike& user) {
  std::vector<std::string> ids;
#if defined(HEARTH_FIREBASE_LEGACY_API)
  for (auto* info : user.provider_data()) ids.push_back(info->provider_id());
#else
  for (const auto& info : user.provider_data()) ids.push_back(info.provider_id());
#endif
  std::sort(ids.begin(), ids.end());
  std::string joined;
  for (const auto& id : ids) joined += (joined.empty() ? "" : ",") + id;
  return joined;
}

#if defined(HEARTH_FIREBASE_LEGACY_API)
inline firebase::auth::User& Current(firebase::auth::Auth* auth) { return *auth->current_user(); }
inline bool SignedIn(firebase::auth::Auth* auth) { return auth->current_user() != nullptr; }
#else
inline firebase::auth::User Current(firebase::auth::Auth* auth) { return auth->current_user(); }
inline bool SignedIn(firebase::auth::Auth* auth) { return auth->current_user().is_valid(); }
#endif

// A listener that removes itself from its own call (the removal must not wait for that call to end).
class SelfRemovingListener : public firebase::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(firebase::auth::Auth* auth) override {
    calls++;
    auth->RemoveAuthStateListener(this);
  }
  std::atomic<int> calls{0};
};

// What a careless or hostile caller passes: empty and NULL arguments, junk tokens, oversized and control-character
// input, calls from many threads at once. Each ends in a future with an error, never a crash or a hang.
inline void Hostile(firebase::auth::Auth* auth) {
  auth->SignOut();
  firebase::auth::Credential none;
  Check(!none.is_valid() && none.provider().empty(), "a default Credential is not valid");
  auto with_none = auth->SignInWithCredential(none);
  Await(with_none, "SignInWithCredential(invalid credential)", false);
  Check(with_none.error() == firebase::auth::kAuthErrorInvalidCredential, Describe("invalid credential", with_none));
  firebase::auth::Credential null_provider = firebase::auth::OAuthProvider::GetCredential(nullptr, nullptr, nullptr);
  Check(!null_provider.is_valid(), "OAuthProvider::GetCredential(nullptr, …) is not valid");
  Check(!firebase::auth::OAuthProvider::GetCredential("apple.com", nullptr, nullptr).is_valid(),
        "an OAuth credential without a token is not valid");
  auto null_email = auth->SignInWithEmailAndPassword(nullptr, nullptr);
  Await(null_email, "SignInWithEmailAndPassword(nullptr, nullptr)", false);
  Check(null_email.error() != 0 && !SignedIn(auth), Describe("NULL e-mail and password refused", null_email));
  auto junk = auth->SignInWithCustomToken("not.a.token");
  Await(junk, "SignInWithCustomToken(junk)", false);
  Check(junk.error() == firebase::auth::kAuthErrorInvalidCustomToken, Describe("kAuthErrorInvalidCustomToken", junk));
  auto junk_apple = auth->SignInWithCredential(firebase::auth::OAuthProvider::GetCredential("apple.com", "x.y.z", "n", nullptr));
  Await(junk_apple, "an Apple token that is no JWT", false);
  Check(junk_apple.error() == firebase::auth::kAuthErrorInvalidCredential, Describe("junk Apple token", junk_apple));
  std::string huge(200000, 'a');
  huge += "@example.com";
  auto oversized = auth->SignInWithEmailAndPassword(huge.c_str(), "whatever");
  Await(oversized, "a 200 kB e-mail address", false);
  Check(oversized.error() != 0 && !SignedIn(auth), Describe("oversized e-mail refused", oversized));
  auto control = auth->CreateUserWithEmailAndPassword("evil\r\nBcc: x@example.com", "password123");
  Await(control, "control characters in the e-mail", false);
  Check(control.error() == firebase::auth::kAuthErrorInvalidEmail, Describe("control characters: kAuthErrorInvalidEmail", control));
  auto unknown = auth->SignInWithCredential(firebase::auth::OAuthProvider::GetCredential("unknown.example", "x.y.z", nullptr));
  Await(unknown, "an unknown provider", false);
  Check(unknown.error() != 0 && !SignedIn(auth), Describe("unknown provider refused", unknown));

  // Many threads at once: sign-ups, token refreshes and sign-outs racing on one Auth.
  Await(auth->SignInAnonymously(), "SignInAnonymously before the race");
  std::atomic<int> finished{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([auth, i, &finished] {
      for (int round = 0; round < 5; ++round) {
        firebase::FutureBase future;
        if (i % 2 == 0) {
          future = Current(auth).GetToken(true);
        } else {
          future = auth->SignInAnonymously();
        }
        if (future.Wait(120000)) finished++;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  Check(finished == 40, "40 calls from 8 threads all completed (" + std::to_string(finished) + ")");

  SelfRemovingListener listener;
  auth->AddAuthStateListener(&listener);
  for (int i = 0; i < 100 && listener.calls == 0; ++i) Wait(50);
  auth->SignOut();
  Wait(200);
  Check(listener.calls == 1, "a listener that removed itself is not called again");

  auto done = auth->SignInAnonymously();
  Await(done, "SignInAnonymously");
  std::atomic<bool> late{false};
  done.OnCompletion([&late](const firebase::FutureBase&) { late = true; });
  Check(late, "OnCompletion on a completed future runs at once");
}

// The calls the seeds do not show: the other providers' credentials, e-mail and password, tokens, callbacks.
// Ends with `back_to` signed in again through the updated credential of a refused link.
inline void OtherCalls(firebase::auth::Auth* auth, const std::string& back_to) {
  struct Case {
    const char* provider;
    firebase::auth::Credential credential;
  };
  Case cases[] = {
      {"google.com", firebase::auth::GoogleAuthProvider::GetCredential(Env("SEED_GOOGLE_ID_TOKEN"), nullptr)},
      {"microsoft.com", firebase::auth::OAuthProvider::GetCredential("microsoft.com", Env("SEED_MICROSOFT_ID_TOKEN"), nullptr)},
      {"twitter.com", firebase::auth::TwitterAuthProvider::GetCredential(Env("SEED_TWITTER_TOKEN"), Env("SEED_TWITTER_SECRET"))},
      {"github.com", firebase::auth::GitHubAuthProvider::GetCredential(Env("SEED_GITHUB_TOKEN"))},
  };
  for (const Case& each : cases) {
    auth->SignOut();
    Check(each.credential.is_valid() && each.credential.provider() == each.provider,
          std::string("credential for ") + each.provider);
    auto signed_in = auth->SignInWithCredential(each.credential);
    Await(signed_in, std::string("SignInWithCredential ") + each.provider);
    Check(SignedIn(auth) && Providers(Current(auth)) == each.provider, std::string("signed in with ") + each.provider);
  }
  auto data = auth->SignInAndRetrieveDataWithCredential(cases[3].credential);
  if (auto* result = Await(data, "GitHub again")) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
    const auto& info = result->info;
#else
    const auto& info = result->additional_user_info;
#endif
    auto login = info.profile.find(firebase::Variant("login"));
    Check(info.provider_id == "github.com" && login != info.profile.end() && login->second.is_string() &&
              std::string(login->second.string_value()) == "sandbox-mona",
          "additional_user_info.profile[\"login\"] as a Variant");
  }

  // E-mail and password.
  auth->SignOut();
  const char* email = "cpp-seed@example.com";
  Await(auth->CreateUserWithEmailAndPassword(email, "correct horse battery"), "CreateUserWithEmailAndPassword");
  Check(SignedIn(auth) && Current(auth).email() == email, "created and signed in");
  auto taken = auth->CreateUserWithEmailAndPassword(email, "correct horse battery");
  Await(taken, "the same address again", false);
  Check(taken.error() == firebase::auth::kAuthErrorEmailAlreadyInUse, Describe("kAuthErrorEmailAlreadyInUse", taken));
  auto weak = auth->CreateUserWithEmailAndPassword("cpp-weak@example.com", "123");
  Await(weak, "weak password", false);
  Check(weak.error() == firebase::auth::kAuthErrorWeakPassword, Describe("kAuthErrorWeakPassword", weak));
  auth->SignOut();
  auto wrong = auth->SignInWithEmailAndPassword(email, "not the password");
  Await(wrong, "wrong password", false);
  Check(wrong.error() == firebase::auth::kAuthErrorWrongPassword ||
            wrong.error() == firebase::auth::kAuthErrorInvalidCredential,
        Describe("wrong password", wrong));
  Check(!SignedIn(auth), "a wrong password signs nobody in");
  auto bad_email = auth->SignInWithEmailAndPassword("not an address", "whatever");
  Await(bad_email, "malformed address", false);
  Check(bad_email.error() == firebase::auth::kAuthErrorInvalidEmail, Describe("kAuthErrorInvalidEmail", bad_email));
  Await(auth->SignInWithEmailAndPassword(email, "correct horse battery"), "SignInWithEmailAndPassword");
  auto methods = auth->FetchProvidersForEmail(email);
  Await(methods, "FetchProvidersForEmail");
  Check(methods.result() != nullptr, "FetchProvidersForEmail answered");
  auto password_credential = firebase::auth::EmailAuthProvider::GetCredential(email, "correct horse battery");
  Await(auth->SignInWithCredential(password_credential), "EmailAuthProvider credential");
  Check(password_credential.provider() == "password", "EmailAuthProvider::kProviderId");

  // Tokens: a JWT; a forced refresh gives a new one.
  auto token = Current(auth).GetToken(false);
  const std::string* first = Await(token, "GetToken(false)");
  Check(first && std::count(first->begin(), first->end(), '.') == 2, "GetToken gives a JWT");
  // A token minted in the same second as the first would be the same bytes (same claims, deterministic RS256).
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto refreshed = Current(auth).GetToken(true);
  const std::string* second = Await(refreshed, "GetToken(true)");
  Check(second && first && *second != *first, "GetToken(true) refreshes");

  // OnCompletion on a background thread; copies of a future share it and outlive the call.
  std::atomic<bool> called{false};
  std::atomic<bool> other_thread{false};
  std::thread::id main_thread = std::this_thread::get_id();
  firebase::Future<std::string> copy;
  {
    auto pending = Current(auth).GetToken(true);
    copy = pending;
    pending.OnCompletion([&](const firebase::Future<std::string>& done) {
      other_thread = std::this_thread::get_id() != main_thread;
      called = done.error() == 0;
    });
  }
  Check(copy.Wait(firebase::FutureBase::kWaitTimeoutInfinite) && copy.result() && !copy.result()->empty(),
        "a copied future outlives the original");
  for (int i = 0; i < 100 && !called; ++i) Wait(50);
  Check(called && other_thread, "OnCompletion called on a background thread");
  firebase::Future<std::string> invalid;
  Check(invalid.status() == firebase::kFutureStatusInvalid && invalid.result() == nullptr, "a default Future is invalid");

  // No user: user calls fail at once.
  auth->SignOut();
#if !defined(HEARTH_FIREBASE_LEGACY_API)
  auto nobody = auth->current_user().GetToken(false);
  Check(nobody.status() == firebase::kFutureStatusComplete && nobody.error() == firebase::auth::kAuthErrorNoSignedInUser,
        "GetToken without a user: kAuthErrorNoSignedInUser");
#endif
  firebase::auth::FederatedOAuthProvider empty;
  auto no_provider = auth->SignInWithProvider(&empty);
  Await(no_provider, "SignInWithProvider without a provider id", false);
  Check(no_provider.error() == firebase::auth::kAuthErrorInvalidProviderId, Describe("kAuthErrorInvalidProviderId", no_provider));

  Hostile(auth);

  // Back to the Apple account for the restart run.
  firebase::auth::Credential bobs = firebase::auth::OAuthProvider::GetCredential(
      "apple.com", Env("SEED_APPLE_RELAY_TOKEN_2"), Env("SEED_APPLE_RELAY_NONCE_2"), nullptr);
  Await(auth->SignInWithCredential(bobs), "sign in to the Apple account again");
  Check(SignedIn(auth) && Current(auth).uid() == back_to, "signed in to the Apple account for the restart run");
}

// `restart`: a new process finds the user the last one signed in.
inline int RunRestart(firebase::auth::Auth* auth, const std::string& uid) {
  Check(SignedIn(auth) && Current(auth).uid() == uid, "the signed-in user survived the restart (" + uid + ")");
  if (SignedIn(auth)) {
    auto token = Current(auth).GetToken(true);
    Await(token, "GetToken(true) after the restart");
  }
  return Finish();
}

// `offline`: the server has stopped. The stored user is still there; calls fail with a network error.
inline int RunOffline(firebase::auth::Auth* auth) {
  Check(SignedIn(auth), "the stored user is there without a server");
  if (SignedIn(auth)) {
    auto token = Current(auth).GetToken(true);
    Await(token, "GetToken(true) with the server down", false);
    Check(token.error() == firebase::auth::kAuthErrorNetworkRequestFailed, Describe("kAuthErrorNetworkRequestFailed", token));
  }
  auto anonymous = auth->SignInAnonymously();
  Await(anonymous, "SignInAnonymously with the server down", false);
  Check(anonymous.error() == firebase::auth::kAuthErrorNetworkRequestFailed,
        Describe("kAuthErrorNetworkRequestFailed", anonymous));
  return Finish();
}

}  // namespace seed

#endif  // HEARTH_SEED_SUPPORT_H_
