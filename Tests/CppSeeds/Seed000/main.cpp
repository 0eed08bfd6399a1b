// Seed 000 (Sign in with Apple, C++; Firebase 11 and later): the guide's C++ snippets, transcribed literally,
// run against a live Hearth server by HearthCppTests. The test gives the provider tokens a real app would get
// from Apple's and Facebook's SDKs in SEED_* variables, and a scripted "system browser" in BROWSER.
//
//   hearth-cpp-seed-000 seed             the guide's steps, error paths and the rest of the API
//   hearth-cpp-seed-000 restart UID      the user signed in by `seed` is still signed in (persistence)
//   hearth-cpp-seed-000 offline          the server is gone: every call fails with a network error, none hangs
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "seed_support.h"

using firebase::auth::AuthCredential;  // the guide writes it unqualified

using seed::Await;
using seed::Check;
using seed::Env;
using seed::Wait;

namespace {

// MARK: The guide's snippets. Free names (token, nonce, credential, user, auth) are the parameters.

// "Accessing the firebase::auth::Auth class", steps 2 and 3 (not Android), after the one configuration line.
firebase::auth::Auth* AccessAuth() {
  hearth::Configure(Env("HEARTH_SERVER_URL"), Env("HEARTH_API_KEY"), Env("HEARTH_PROJECT_ID"));
  firebase::App* app = firebase::App::Create(firebase::AppOptions());
  firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);
  return auth;
}

// Apple platforms, step 4. The guide drops the assignment of its first statement; it is `credential` below.
firebase::Future<firebase::auth::AuthResult> SignInWithAppleToken(firebase::auth::Auth* auth, const char* token,
                                                                  const char* nonce) {
  firebase::auth::Credential credential =
  firebase::auth::OAuthProvider::GetCredential(
          /*provider_id=*/"apple.com", token, nonce,
          /*access_token=*/nullptr);

  firebase::Future<firebase::auth::AuthResult> result =
      auth->SignInAndRetrieveDataWithCredential(credential);
  return result;
}

// Step 5.
firebase::Future<firebase::auth::AuthResult> Reauthenticate(firebase::auth::User* user,
                                                            const firebase::auth::Credential& credential) {
  firebase::Future<firebase::auth::AuthResult> result =
      user->Reauthenticate(credential);
  return result;
}

// Step 6; returns which branch ran: "linked", "signed in with updated_credential" or "other error".
std::string LinkApple(firebase::auth::Auth* auth, const firebase::auth::Credential& credential,
                      firebase::Future<firebase::auth::AuthResult>* signed_in) {
  std::string branch;
  firebase::Future<firebase::auth::AuthResult> link_result =
      auth->current_user().LinkWithCredential(credential);

  // To keep example simple, wait on the current thread until call completes.
  while (link_result.status() == firebase::kFutureStatusPending) {
    Wait(100);
  }

  // Determine the result of the link attempt
  if (link_result.error() == firebase::auth::kAuthErrorNone) {
    // user linked correctly.
    branch = "linked";
  } else if (link_result.error() ==
                 firebase::auth::kAuthErrorCredentialAlreadyInUse &&
             link_result.result()
                 ->additional_user_info.updated_credential.is_valid()) {
    // Sign In with the new credential
    firebase::Future<firebase::auth::AuthResult> result =
        auth->SignInAndRetrieveDataWithCredential(
            link_result.result()->additional_user_info.updated_credential);
    *signed_in = result;
    branch = "signed in with updated_credential";
  } else {
    // Another link error occurred.
    branch = "other error";
  }
  return branch;
}

// Android, steps 1 to 5.
firebase::Future<firebase::auth::AuthResult> SignInWithAppleProvider(firebase::auth::Auth* auth) {
  firebase::auth::FederatedOAuthProviderData provider_data("apple.com");

  provider_data.scopes.push_back("email");
  provider_data.scopes.push_back("name");

  // Localize to French.
  provider_data.custom_parameters["language"] = "fr";

  // Construct a FederatedOAuthProvider for use in Auth methods.
  firebase::auth::FederatedOAuthProvider provider(provider_data);

  firebase::Future<firebase::auth::AuthResult> result =
    auth->SignInWithProvider(provider_data);
  return result;
}

// Android, step 6.
firebase::Future<firebase::auth::AuthResult> ReauthenticateWithAppleProvider(firebase::auth::User& user) {
  firebase::auth::FederatedOAuthProviderData provider_data("apple.com");
  provider_data.scopes.push_back("email");
  provider_data.scopes.push_back("name");
  provider_data.custom_parameters["language"] = "fr";

  firebase::Future<firebase::auth::AuthResult> result =
    user.ReauthenticateWithProvider(provider_data);
  return result;
}

// Android, step 7 (`auth` is a reference here, as the guide writes `auth.current_user()`).
firebase::Future<firebase::auth::AuthResult> LinkFacebook(firebase::auth::Auth& auth, const char* token) {
  // Initialize a Facebook credential with a Facebook access token.
  AuthCredential credential =
      firebase::auth::FacebookAuthProvider.getCredential(token);

  // Assuming the current user is an Apple user linking a Facebook provider.
  firebase::Future<firebase::auth::AuthResult> result =
      auth.current_user().LinkWithCredential(credential);
  return result;
}

// MARK: The runs

class CountingListener : public firebase::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(firebase::auth::Auth* auth) override {
    calls++;
    signed_in = auth->current_user().is_valid();
  }
  std::atomic<int> calls{0};
  std::atomic<bool> signed_in{false};
};

int RunSeed() {
  firebase::auth::Auth* auth = AccessAuth();
  Check(auth != nullptr, "App::Create + Auth::GetAuth");
  CountingListener listener;
  auth->AddAuthStateListener(&listener);

  // Android: the browser flow with scopes and `language`; the name comes with the first sign-in only.
  const firebase::auth::AuthResult* provider_result = Await(SignInWithAppleProvider(auth), "SignInWithProvider(apple.com)");
  std::string bob = provider_result ? provider_result->user.uid() : "";
  Check(!bob.empty(), "SignInWithProvider signed in");
  Check(auth->current_user().display_name() == "Bob Relay", "display_name() from the first Apple sign-in");
  Check(seed::EndsWith(auth->current_user().email(), "@privaterelay.appleid.com"), "private relay e-mail");
  Check(auth->current_user().photo_url().empty(), "Apple gives no photo URL");
  Check(provider_result && provider_result->additional_user_info.provider_id == "apple.com", "additional_user_info.provider_id");
  firebase::auth::User user = auth->current_user();
  const firebase::auth::AuthResult* again = Await(ReauthenticateWithAppleProvider(user), "ReauthenticateWithProvider");
  Check(again && again->user.uid() == bob, "ReauthenticateWithProvider: same account");
  Check(auth->current_user().display_name() == "Bob Relay", "the stored name stays after the second sign-in");

  // The app's own browser (hearth::SetBrowser): it is handed the provider's page, with the seed's scopes and
  // `language`, and here opens it with the same scripted browser.
  struct Opened {
    std::mutex mutex;
    std::string url;
  } opened;
  hearth::SetBrowser(
      [](void* data, const char* url) {
        auto* opened = static_cast<Opened*>(data);
        {
          std::lock_guard<std::mutex> lock(opened->mutex);
          opened->url = url;
        }
        std::string command = std::string("'") + seed::Env("BROWSER") + "' '" + url + "' &";
        if (std::system(command.c_str()) != 0) std::fprintf(stderr, "could not start the browser\n");
      },
      &opened);
  firebase::auth::FederatedOAuthProviderData apple("apple.com", {"email", "name"}, {{"language", "fr"}});
  firebase::auth::FederatedOAuthProvider apple_provider(apple);
  const firebase::auth::AuthResult* hooked = Await(user.ReauthenticateWithProvider(&apple_provider), "ReauthenticateWithProvider(&provider) through SetBrowser");
  Check(hooked && hooked->user.uid() == bob, "the app's browser signed in to the same account");
  {
    std::lock_guard<std::mutex> lock(opened.mutex);
    Check(opened.url.find("language=fr") != std::string::npos && opened.url.find("scope=") != std::string::npos,
          "the provider's page was asked for language=fr and the scopes");
  }
  // A browser that never comes back: the flow ends after the time-out, cancelled, not hung.
  hearth::SetBrowser([](void*, const char*) {}, nullptr, 1);
  firebase::Future<firebase::auth::AuthResult> abandoned = auth->SignInWithProvider(&apple_provider);
  Await(abandoned, "an abandoned browser", false);
  Check(abandoned.error() == firebase::auth::kAuthErrorWebContextCancelled, seed::Describe("kAuthErrorWebContextCancelled", abandoned));
  hearth::SetBrowser(nullptr, nullptr);
  Check(auth->current_user().uid() == bob, "the abandoned sign-in changed nothing");

  // Android step 7: link Facebook to the Apple account, then unlink it again.
  const firebase::auth::AuthResult* facebook = Await(LinkFacebook(*auth, Env("SEED_FACEBOOK_TOKEN")), "link Facebook");
  Check(facebook != nullptr, "FacebookAuthProvider.getCredential + LinkWithCredential");
  Check(seed::Providers(auth->current_user()) == "apple.com,facebook.com", "provider_data(): apple.com, facebook.com");
  Await(auth->current_user().Unlink("facebook.com"), "Unlink(facebook.com)");
  Check(seed::Providers(auth->current_user()) == "apple.com", "Unlink removed facebook.com");
  firebase::Future<firebase::auth::AuthResult> missing = auth->current_user().Unlink("facebook.com");
  Await(missing, "Unlink of a provider that is not linked", false);
  Check(missing.error() == firebase::auth::kAuthErrorNoSuchProvider, seed::Describe("kAuthErrorNoSuchProvider", missing));

  auth->SignOut();
  Check(!auth->current_user().is_valid(), "SignOut: current_user() is not valid");

  // Apple platforms, step 4: the ID token and the raw nonce.
  const char* token = Env("SEED_APPLE_TOKEN");
  const char* nonce = Env("SEED_APPLE_NONCE");
  const firebase::auth::AuthResult* alice = Await(SignInWithAppleToken(auth, token, nonce), "SignInAndRetrieveDataWithCredential");
  Check(alice && alice->user.email() == "alice@example.com", "Apple ID token + nonce signed in");
  std::string alice_uid = auth->current_user().uid();
  Check(!alice_uid.empty() && alice_uid != bob, "a new account for another Apple ID");

  // Step 5: reauthenticate with the same kind of credential.
  firebase::auth::User current = auth->current_user();
  // A second token: Hearth refuses an ID token it has already seen.
  firebase::auth::Credential credential = firebase::auth::OAuthProvider::GetCredential(
      "apple.com", Env("SEED_APPLE_TOKEN_2"), Env("SEED_APPLE_NONCE_2"), nullptr);
  const firebase::auth::AuthResult* reauthenticated = Await(Reauthenticate(&current, credential), "Reauthenticate");
  Check(reauthenticated && reauthenticated->user.uid() == alice_uid, "Reauthenticate: same account");
  // Firebase declares Reauthenticate as Future<void>; code that says so compiles too.
  static_assert(std::is_convertible<decltype(current.Reauthenticate(credential)), firebase::Future<void>>::value,
                "Reauthenticate's future is a Future<void>");

  // Step 6: an anonymous user links Bob's Apple ID, which is already an account's.
  auth->SignOut();
  Await(auth->SignInAnonymously(), "SignInAnonymously");
  Check(auth->current_user().is_anonymous(), "is_anonymous()");
  firebase::auth::Credential bobs = firebase::auth::OAuthProvider::GetCredential(
      "apple.com", Env("SEED_APPLE_RELAY_TOKEN"), Env("SEED_APPLE_RELAY_NONCE"), nullptr);
  firebase::Future<firebase::auth::AuthResult> signed_in;
  std::string branch = LinkApple(auth, bobs, &signed_in);
  Check(branch == "signed in with updated_credential", "kAuthErrorCredentialAlreadyInUse with updated_credential: " + branch);
  const firebase::auth::AuthResult* back = Await(signed_in, "sign in with updated_credential");
  Check(back && back->user.uid() == bob && auth->current_user().uid() == bob, "updated_credential signed in to the Apple account");

  // Error paths: the wrong nonce and an expired token, each a future with the error, no user change.
  firebase::Future<firebase::auth::AuthResult> wrong = SignInWithAppleToken(auth, token, "not-the-nonce");
  Await(wrong, "wrong nonce", false);
  Check(wrong.error() == firebase::auth::kAuthErrorInvalidCredential, seed::Describe("wrong nonce", wrong));
  firebase::Future<firebase::auth::AuthResult> expired = SignInWithAppleToken(auth, Env("SEED_APPLE_EXPIRED_TOKEN"), nonce);
  Await(expired, "expired token", false);
  Check(expired.error() == firebase::auth::kAuthErrorInvalidCredential, seed::Describe("expired token", expired));
  Check(auth->current_user().uid() == bob, "failed sign-ins leave the user signed in");

  seed::OtherCalls(auth, bob);
  seed::Report("uid=" + bob);
  auth->RemoveAuthStateListener(&listener);
  Check(listener.calls >= 6, "AddAuthStateListener: called on each change (" + std::to_string(listener.calls) + ")");
  return seed::Finish();
}

}  // namespace

int main(int argc, char** argv) {
  std::string phase = argc > 1 ? argv[1] : "seed";
  if (phase == "seed") return RunSeed();
  if (phase == "restart") return seed::RunRestart(AccessAuth(), argc > 2 ? argv[2] : "");
  if (phase == "offline") return seed::RunOffline(AccessAuth());
  std::fprintf(stderr, "usage: %s seed | restart UID | offline\n", argv[0]);
  return 2;
}
