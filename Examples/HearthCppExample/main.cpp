// The README's C++ example: sign in anonymously, upgrade the account with an e-mail and password, read its ID
// token, sign out and back in. Build and run it against `swift run hearth serve`:
//
//   swift build --product hearth-cpp-example && .build/debug/hearth-cpp-example
#include <cstdio>
#include <cstdlib>
#include <string>

#include "firebase/app.h"
#include "firebase/auth.h"

// Waits for a call and reports it; false when it failed.
template <typename T>
bool Finished(const firebase::Future<T>& future, const char* what) {
  future.Wait(firebase::FutureBase::kWaitTimeoutInfinite);
  if (future.error() != firebase::auth::kAuthErrorNone) {
    std::printf("%s failed: error %d, %s\n", what, future.error(), future.error_message());
    return false;
  }
  return true;
}

int main() {
  const char* server = std::getenv("HEARTH_SERVER_URL");
  hearth::Configure(server ? server : "http://127.0.0.1:9099", "dev", "demo-hearth");  // the one Hearth line
  firebase::App* app = firebase::App::Create(firebase::AppOptions());
  firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);

  firebase::Future<firebase::auth::AuthResult> anonymous = auth->SignInAnonymously();
  if (!Finished(anonymous, "SignInAnonymously")) return 1;
  firebase::auth::User user = anonymous.result()->user;
  std::printf("signed in anonymously: uid %s, anonymous %d\n", user.uid().c_str(), user.is_anonymous());

  std::string email = "cpp-" + user.uid().substr(0, 8) + "@example.com";
  firebase::auth::Credential password = firebase::auth::EmailAuthProvider::GetCredential(email.c_str(), "a long passphrase");
  if (!Finished(user.LinkWithCredential(password), "LinkWithCredential")) return 1;
  std::printf("linked %s: anonymous %d, same uid %d\n", email.c_str(), user.is_anonymous(),
              auth->current_user().uid() == user.uid());

  firebase::Future<std::string> token = user.GetToken(false);
  if (!Finished(token, "GetToken")) return 1;
  std::printf("ID token for your backend: %.24s…\n", token.result()->c_str());

  auth->SignOut();
  firebase::Future<firebase::auth::AuthResult> back = auth->SignInWithEmailAndPassword(email.c_str(), "a long passphrase");
  if (!Finished(back, "SignInWithEmailAndPassword")) return 1;
  std::printf("signed in again with the password: same uid %d\n", back.result()->user.uid() == user.uid());
  return 0;
}
