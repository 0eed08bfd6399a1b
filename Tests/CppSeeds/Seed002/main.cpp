// Seed 002 (Sign in with Apple, C++, the older revision written before Firebase 11): the guide's C++ snippets,
// transcribed literally, against the API generation they were written for (HEARTH_FIREBASE_LEGACY_API, set
// in Package.swift): `User* current_user()`, `Future<User*>`, `Future<SignInResult>`.
//
//   hearth-cpp-seed-002 seed | restart UID | offline     (as hearth-cpp-seed-000)
#include <cstdio>
#include <string>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "seed_support.h"

using firebase::auth::AuthCredential;  // the guide writes it unqualified
using seed::Await;
using seed::Check;
using seed::Env;
using seed::Wait;

namespace {

// "Accessing the firebase::auth::Auth class", steps 1 to 3 (not Android), after the one configuration line.
firebase::auth::Auth* AccessAuth() {
  hearth::Configure(Env("HEARTH_SERVER_URL"), Env("HEARTH_API_KEY"), Env("HEARTH_PROJECT_ID"));
  firebase::App* app = firebase::App::Create(firebase::AppOptions());
  firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);
  return auth;
}

// Apple platforms, step 4. The guide drops the assignment of its first statement; it is `credential` below.
firebase::Future<firebase::auth::User*> SignInWithAppleToken(firebase::auth::Auth* auth, const char* token,
                                                             const char* nonce) {
  firebase::auth::Credential credential =
  firebase::auth::OAuthProvider::GetCredential(
          /*provider_id=*/"apple.com", token, nonce,
          /*access_token=*/nullptr);

  firebase::Future<firebase::auth::User*> result =
      auth->SignInWithCredential(credential);
  return result;
}

// Step 5.
firebase::Future<firebase::auth::SignInResult> Reauthenticate(firebase::auth::User* user,
                                                              const firebase::auth::Credential& credential) {
  firebase::Future<firebase::auth::SignInResult> result =
      user->Reauthenticate(credential);
  return result;
}

// Step 6; returns the branch that ran.
std::string LinkApple(firebase::auth::Auth* auth, const firebase::auth::Credential& credential,
                      firebase::Future<firebase::auth::User*>* signed_in) {
  std::string branch;
  firebase::Future<firebase::auth::SignInResult> link_result =
      auth->current_user()->LinkAndRetrieveDataWithCredential(credential);

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
             link_result.result()->info.updated_credential.is_valid()) {
    // Sign In with the new credential
    firebase::Future<firebase::auth::User*> result = auth->SignInWithCredential(
        link_result.result()->info.updated_credential);
    *signed_in = result;
    branch = "signed in with updated_credential";
  } else {
    // Another link error occurred.
    branch = "other error";
  }
  return branch;
}

// Android, steps 1 to 5.
firebase::Future<firebase::auth::SignInResult> SignInWithAppleProvider(firebase::auth::Auth* auth) {
  firebase::auth::FederatedOAuthProviderData provider_data("apple.com");

  provider_data.scopes.push_back("email");
  provider_data.scopes.push_back("name");

  // Localize to French.
  provider_data.custom_parameters["language"] = "fr";

  // Construct a FederatedOAuthProvider for use in Auth methods.
  firebase::auth::FederatedOAuthProvider provider(provider_data);

  firebase::Future<firebase::auth::SignInResult> result =
    auth->SignInWithProvider(provider_data);
  return result;
}

// Android, step 6.
firebase::Future<firebase::auth::SignInResult> ReauthenticateWithAppleProvider(firebase::auth::User* user) {
  firebase::auth::FederatedOAuthProviderData provider_data("apple.com");
  provider_data.scopes.push_back("email");
  provider_data.scopes.push_back("name");
  provider_data.custom_parameters["language"] = "fr";

  firebase::Future<firebase::auth::SignInResult> result =
    user->ReauthenticateWithProvider(provider_data);
  return result;
}

// Android, step 7, in the guide's Java spelling (`auth` is a reference).
firebase::Future<firebase::auth::SignInResult> LinkFacebook(firebase::auth::Auth& auth, const char* token) {
  // Initialize a Facebook credential with a Facebook access token.
  AuthCredential credential =
      firebase::auth::FacebookAuthProvider.getCredential(token);

  // Assuming the current user is an Apple user linking a Facebook provider.
  firebase::Future<firebase::auth::SignInResult> result =
      auth.getCurrentUser().linkWithCredential(credential);
  return result;
}

int RunSeed() {
  firebase::auth::Auth* auth = AccessAuth();
  Check(auth != nullptr && auth->current_user() == nullptr, "App::Create + Auth::GetAuth; current_user() is nullptr");

  const firebase::auth::SignInResult* provider_result = Await(SignInWithAppleProvider(auth), "SignInWithProvider(apple.com)");
  Check(provider_result && provider_result->user == auth->current_user(), "SignInResult::user is current_user()");
  std::string bob = auth->current_user() ? auth->current_user()->uid() : "";
  // "getCurrentUser().getDisplayName()", as the guide names it.
  Check(auth->getCurrentUser().getDisplayName() == "Bob Relay", "display name from the first Apple sign-in");
  Check(provider_result && provider_result->info.provider_id == "apple.com", "SignInResult::info.provider_id");
  Check(provider_result && provider_result->meta.creation_timestamp > 0, "SignInResult::meta");
  firebase::auth::User* user = auth->current_user();
  const firebase::auth::SignInResult* again = Await(ReauthenticateWithAppleProvider(user), "ReauthenticateWithProvider");
  Check(again && again->user && again->user->uid() == bob, "ReauthenticateWithProvider: same account");

  const firebase::auth::SignInResult* facebook = Await(LinkFacebook(*auth, Env("SEED_FACEBOOK_TOKEN")), "link Facebook");
  Check(facebook != nullptr && seed::Providers(*auth->current_user()) == "apple.com,facebook.com",
        "getCurrentUser().linkWithCredential(FacebookAuthProvider.getCredential(token))");
  firebase::Future<firebase::auth::User*> unlinked = auth->current_user()->Unlink("facebook.com");
  Check(Await(unlinked, "Unlink") && *unlinked.result() == auth->current_user(), "Unlink gives User*");

  auth->SignOut();
  Check(auth->current_user() == nullptr, "SignOut: current_user() is nullptr");

  const char* token = Env("SEED_APPLE_TOKEN");
  const char* nonce = Env("SEED_APPLE_NONCE");
  firebase::Future<firebase::auth::User*> result = SignInWithAppleToken(auth, token, nonce);
  firebase::auth::User* const* alice = Await(result, "SignInWithCredential");
  Check(alice && *alice && (*alice)->email() == "alice@example.com", "Future<User*> from SignInWithCredential");
  // A second token: Hearth refuses an ID token it has already seen.
  firebase::auth::Credential credential = firebase::auth::OAuthProvider::GetCredential(
      "apple.com", Env("SEED_APPLE_TOKEN_2"), Env("SEED_APPLE_NONCE_2"), nullptr);
  const firebase::auth::SignInResult* reauthenticated = Await(Reauthenticate(auth->current_user(), credential), "Reauthenticate");
  Check(reauthenticated && reauthenticated->user == auth->current_user(), "Reauthenticate gives a SignInResult");

  auth->SignOut();
  firebase::auth::User* const* anonymous = Await(auth->SignInAnonymously(), "SignInAnonymously");
  Check(anonymous && *anonymous && (*anonymous)->is_anonymous(), "Future<User*> from SignInAnonymously");
  firebase::auth::Credential bobs = firebase::auth::OAuthProvider::GetCredential(
      "apple.com", Env("SEED_APPLE_RELAY_TOKEN"), Env("SEED_APPLE_RELAY_NONCE"), nullptr);
  firebase::Future<firebase::auth::User*> signed_in;
  std::string branch = LinkApple(auth, bobs, &signed_in);
  Check(branch == "signed in with updated_credential", "kAuthErrorCredentialAlreadyInUse with info.updated_credential: " + branch);
  firebase::auth::User* const* back = Await(signed_in, "SignInWithCredential(updated_credential)");
  Check(back && *back && (*back)->uid() == bob, "updated_credential signed in to the Apple account");

  firebase::Future<firebase::auth::User*> wrong = SignInWithAppleToken(auth, token, "not-the-nonce");
  Await(wrong, "wrong nonce", false);
  Check(wrong.error() == firebase::auth::kAuthErrorInvalidCredential, seed::Describe("wrong nonce", wrong));
  firebase::Future<firebase::auth::User*> expired = SignInWithAppleToken(auth, Env("SEED_APPLE_EXPIRED_TOKEN"), nonce);
  Await(expired, "expired token", false);
  Check(expired.error() == firebase::auth::kAuthErrorInvalidCredential, seed::Describe("expired token", expired));

  seed::OtherCalls(auth, bob);
  seed::Report("uid=" + bob);
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
