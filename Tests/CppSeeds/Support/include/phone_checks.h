// PhoneAuthProvider from C++, in the API generation of the program that includes this header (hearth-cpp-phone:
// Firebase 11 and later; hearth-cpp-phone-legacy: Firebase 10), run against a live development-mode server by
// HearthCppTests. The test gives the server test phone numbers (+16505551234: 123456, +16505550000: 000000,
// +16505559999: 999999) and, in PHONE_SMS_READER, a program that prints the code the server sent for a verification
// id (from the emulator's verificationCodes listing).
//
//   PROGRAM phone     sign-up and sign-in with an SMS code, the code's and the number's errors, listeners'
//                     lifetimes, linking, a number in use, reauthentication, UpdatePhoneNumberCredential, Unlink
//   PROGRAM limits    the server's sending limits: kAuthErrorTooManyRequests, then kAuthErrorQuotaExceeded
//   PROGRAM offline   the server has stopped: kAuthErrorNetworkRequestFailed, through the listener
//   PROGRAM second-factor EMAIL PASSWORD
//                     the account has a second factor (the test enrolled it): a password sign-in fails with
//                     kAuthErrorUnimplemented and FirebaseAuth's message, as Firebase's C++ API reports
//                     FIRAuthErrorCodeSecondFactorRequired, and nobody is signed in
#ifndef HEARTH_PHONE_CHECKS_H_
#define HEARTH_PHONE_CHECKS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "seed_support.h"

namespace phone {

using firebase::auth::AuthError;
using firebase::auth::PhoneAuthProvider;
using seed::Await;
using seed::Check;
using seed::Current;
using seed::Describe;
using seed::SignedIn;

#if defined(HEARTH_FIREBASE_LEGACY_API)
using PhoneCredential = firebase::auth::Credential;
#else
using PhoneCredential = firebase::auth::PhoneAuthCredential;
#endif

inline firebase::auth::Auth* AccessAuth() {
  hearth::Configure(seed::Env("HEARTH_SERVER_URL"), seed::Env("HEARTH_API_KEY"), seed::Env("HEARTH_PROJECT_ID"));
  firebase::App* app = firebase::App::Create(firebase::AppOptions());
  return firebase::auth::Auth::GetAuth(app);
}

// What one VerifyPhoneNumber told its listener, callback by callback.
struct Outcome {
  bool finished = false;
  std::string order;  // "sent,timeout," or "error,failed,"
  AuthError error = firebase::auth::kAuthErrorNone;
  std::string error_message;  // OnVerificationFailedWithError's
  std::string failure;        // OnVerificationFailed's
  std::string verification_id;
  std::string timeout_id;
  PhoneAuthProvider::ForceResendingToken token;
  int completed = 0;  // OnVerificationCompleted
  bool other_thread = true;
};

class Recorder : public PhoneAuthProvider::Listener {
 public:
  Recorder() : caller_(std::this_thread::get_id()) {}

  void OnVerificationCompleted(PhoneCredential) override { Record([](Outcome& o) { o.completed++; }, false); }
  void OnVerificationFailed(const std::string& error) override {
    Record(
        [&](Outcome& o) {
          o.order += "failed,";
          o.failure = error;
        },
        true);
  }
  void OnCodeSent(const std::string& verification_id, const PhoneAuthProvider::ForceResendingToken& token) override {
    Record(
        [&](Outcome& o) {
          o.order += "sent,";
          o.verification_id = verification_id;
          o.token = token;
        },
        false);
  }
  void OnCodeAutoRetrievalTimeOut(const std::string& verification_id) override {
    Record(
        [&](Outcome& o) {
          o.order += "timeout,";
          o.timeout_id = verification_id;
        },
        true);
  }
  void OnVerificationFailedWithError(AuthError error, const std::string& message) override {
    Record(
        [&](Outcome& o) {
          o.order += "error,";
          o.error = error;
          o.error_message = message;
        },
        false);
  }

  // The outcome once the last callback came (at most two minutes), and a little later: a stray callback shows.
  Outcome Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait_for(lock, std::chrono::seconds(120), [this] { return outcome_.finished; });
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    lock.lock();
    return outcome_;
  }

 private:
  template <typename Change>
  void Record(Change change, bool last) {
    std::lock_guard<std::mutex> lock(mutex_);
    change(outcome_);
    if (std::this_thread::get_id() == caller_) outcome_.other_thread = false;
    if (last) outcome_.finished = true;
    done_.notify_all();
  }

  std::thread::id caller_;
  std::mutex mutex_;
  std::condition_variable done_;
  Outcome outcome_;
};

// VerifyPhoneNumber in this generation's form, with its outcome.
inline void Start(PhoneAuthProvider& provider, const std::string& number, PhoneAuthProvider::Listener* listener,
                  PhoneAuthProvider::ForceResendingToken* token = nullptr) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
  provider.VerifyPhoneNumber(number.c_str(), PhoneAuthProvider::kMaxTimeoutMs, token, listener);
#else
  firebase::auth::PhoneAuthOptions options;
  options.phone_number = number;
  options.timeout_milliseconds = 30000;
  options.force_resending_token = token;
  provider.VerifyPhoneNumber(options, listener);
#endif
}

inline Outcome Verify(PhoneAuthProvider& provider, const std::string& number,
                      PhoneAuthProvider::ForceResendingToken* token = nullptr) {
  Recorder recorder;
  Start(provider, number, &recorder, token);
  Outcome outcome = recorder.Wait();
  if (!outcome.finished) Check(false, "VerifyPhoneNumber(" + number.substr(0, 40) + "): no outcome after 120 s");
  return outcome;
}

inline std::string Printable(const std::string& text) {
  std::string shown;
  for (unsigned char c : text.substr(0, 40)) {
    if (c >= 0x20 && c < 0x7f) {
      shown += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      shown += escaped;
    }
  }
  return shown + (text.size() > 40 ? "…" : "");
}

// The code the server sent for `verification_id`, from PHONE_SMS_READER.
inline std::string SmsCode(const std::string& verification_id) {
  for (char c : verification_id) {
    bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!safe) return std::string();  // a server's id is base64url; anything else does not go near a shell
  }
  std::string command = std::string(seed::Env("PHONE_SMS_READER")) + " " + verification_id;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return std::string();
  std::string code;
  char buffer[64];
  while (std::fgets(buffer, sizeof buffer, pipe)) code += buffer;
  pclose(pipe);
  while (!code.empty() && (code.back() == '\n' || code.back() == '\r')) code.pop_back();
  return code;
}

// The fixed code of the server's test numbers.
inline const char* TestCode(const std::string& number) {
  if (number == "+16505551234") return "123456";
  if (number == "+16505550000") return "000000";
  if (number == "+16505559999") return "999999";
  return "";
}

// A credential of a test number: a code sent, and its fixed code.
inline PhoneCredential TestCredential(PhoneAuthProvider& provider, const std::string& number) {
  Outcome sent = Verify(provider, number);
  Check(sent.error == firebase::auth::kAuthErrorNone && !sent.verification_id.empty(),
        "a code sent to " + number + " (" + sent.failure + ")");
  return provider.GetCredential(sent.verification_id.c_str(), TestCode(number));
}

template <typename T>
void ExpectError(const firebase::Future<T>& future, AuthError expected, const std::string& what) {
  Await(future, what, false);
  Check(future.error() == expected, Describe(what + ": expected error " + std::to_string(expected), future));
}

// The updated credential a refused link carries.
template <typename Result>
firebase::auth::Credential UpdatedCredential(const Result* result) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
  return result ? result->info.updated_credential : firebase::auth::Credential();
#else
  return result ? result->additional_user_info.updated_credential : firebase::auth::Credential();
#endif
}

inline auto LinkAndRetrieve(firebase::auth::Auth* auth, const firebase::auth::Credential& credential) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
  return Current(auth).LinkAndRetrieveDataWithCredential(credential);
#else
  return Current(auth).LinkWithCredential(credential);
#endif
}

template <typename UserLike>
bool HasPhone(const UserLike& user, const std::string& number) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
  for (auto* info : user.provider_data()) {
    if (info->provider_id() == "phone" && info->uid() == number && info->phone_number() == number) return true;
  }
#else
  for (const auto& info : user.provider_data()) {
    if (info.provider_id() == "phone" && info.uid() == number && info.phone_number() == number) return true;
  }
#endif
  return false;
}

// MARK: Listeners' lifetimes

inline std::atomic<bool> g_deleted{false};
inline std::atomic<int> g_late_calls{0};

// Counts any call once the test has deleted it: there must be none.
class Abandoned : public PhoneAuthProvider::Listener {
 public:
  void OnVerificationCompleted(PhoneCredential) override { Late(); }
  void OnVerificationFailed(const std::string&) override { Late(); }
  void OnCodeSent(const std::string&, const PhoneAuthProvider::ForceResendingToken&) override { Late(); }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override { Late(); }

 private:
  static void Late() {
    if (g_deleted) g_late_calls++;
  }
};

inline std::atomic<int> g_self_calls{0};
inline std::atomic<bool> g_self_deleted{false};

// Deletes itself in OnCodeSent: the timeout call that would follow must not come.
class SelfDeleting : public PhoneAuthProvider::Listener {
 public:
  void OnVerificationCompleted(PhoneCredential) override { g_self_calls++; }
  void OnVerificationFailed(const std::string&) override { g_self_calls++; }
  void OnCodeSent(const std::string&, const PhoneAuthProvider::ForceResendingToken&) override {
    g_self_calls++;
    delete this;
    g_self_deleted = true;
  }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override { g_self_calls++; }
};

inline std::atomic<int> g_after_throw{0};
inline std::atomic<bool> g_thrown{false};

// Throws from OnCodeSent: the program goes on, and the listener is not called again for that code.
class Throwing : public PhoneAuthProvider::Listener {
 public:
  void OnVerificationCompleted(PhoneCredential) override {}
  void OnVerificationFailed(const std::string&) override { g_after_throw++; }
  void OnCodeSent(const std::string&, const PhoneAuthProvider::ForceResendingToken&) override {
    g_thrown = true;
    throw std::runtime_error("a listener's own exception");
  }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override { g_after_throw++; }
};

inline std::atomic<bool> g_named_done{false};

// Records its name with each call, in one list for every instance.
class Named : public PhoneAuthProvider::Listener {
 public:
  explicit Named(std::string name) : name(std::move(name)) {}
  Named(const Named&) = default;

  void OnVerificationCompleted(PhoneCredential) override { Add("completed"); }
  void OnVerificationFailed(const std::string&) override { Add("failed"); }
  void OnCodeSent(const std::string&, const PhoneAuthProvider::ForceResendingToken&) override { Add("sent"); }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override {
    Add("timeout");
    g_named_done = true;
  }

  static std::string Calls() {
    std::lock_guard<std::mutex> lock(Mutex());
    return List();
  }

  std::string name;

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::string& List() {
    static std::string list;
    return list;
  }
  void Add(const char* what) {
    std::lock_guard<std::mutex> lock(Mutex());
    List() += name + ":" + what + ",";
  }
};

inline void WaitFor(const std::atomic<bool>& flag) {
  for (int i = 0; i < 1200 && !flag; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

inline void Lifetimes(PhoneAuthProvider& provider) {
  // No listener: nothing to tell, nothing sent, no crash.
  Start(provider, "+16505551234", nullptr);

  // Deleted before the server answers: not called afterwards (the destructor waits for a call under way).
  auto* abandoned = new Abandoned();
  Start(provider, "+16505551234", abandoned);
  delete abandoned;
  g_deleted = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  Check(g_late_calls == 0, "a deleted listener is not called (" + std::to_string(g_late_calls) + " late calls)");

  Start(provider, "+16505551234", new SelfDeleting());
  WaitFor(g_self_deleted);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Check(g_self_deleted && g_self_calls == 1, "a listener that deletes itself in OnCodeSent is not called again (" +
                                                 std::to_string(g_self_calls) + " calls)");

  Throwing throwing;
  Start(provider, "+16505551234", &throwing);
  WaitFor(g_thrown);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Check(g_thrown && g_after_throw == 0, "an exception from OnCodeSent ends that code's callbacks, not the program");

  // A copy is a listener of its own: the original gets none of its calls.
  Named original("original");
  Named copy(original);
  copy.name = "copy";
  Start(provider, "+16505551234", &copy);
  WaitFor(g_named_done);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Check(Named::Calls() == "copy:sent,copy:timeout,", "a copied listener receives its own calls (" + Named::Calls() + ")");

  // No Auth: the provider's calls fail, they do not crash.
  PhoneAuthProvider& detached = PhoneAuthProvider::GetInstance(nullptr);
  Outcome without = Verify(detached, "+16505551234");
  Check(without.order == "error,failed," && without.error == firebase::auth::kAuthErrorFailure,
        "GetInstance(nullptr): VerifyPhoneNumber fails with kAuthErrorFailure (" + without.order + ")");
  Check(!detached.GetCredential("id", "123456").is_valid(), "GetInstance(nullptr): GetCredential is not valid");
}

// MARK: The runs

inline int RunPhone() {
  firebase::auth::Auth* auth = AccessAuth();
  Check(auth != nullptr, "App::Create + Auth::GetAuth");
  if (!auth) return seed::Finish();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  Check(&provider == &PhoneAuthProvider::GetInstance(auth), "GetInstance gives the Auth's one provider");
  Check(std::string(PhoneAuthProvider::kProviderId) == "phone", "PhoneAuthProvider::kProviderId is \"phone\"");
  auth->SignOut();

  // A number that gets an SMS: OnCodeSent, then OnCodeAutoRetrievalTimeOut, on a background thread.
  const std::string number = "+919876543210";
  Outcome sent = Verify(provider, number);
  Check(sent.order == "sent,timeout,", "OnCodeSent then OnCodeAutoRetrievalTimeOut (" + sent.order + sent.failure + ")");
  Check(!sent.verification_id.empty() && sent.timeout_id == sent.verification_id, "both with the verification id");
  Check(sent.other_thread && sent.completed == 0, "on a background thread; OnVerificationCompleted not called");
  PhoneAuthProvider::ForceResendingToken none;
  Check(none == PhoneAuthProvider::ForceResendingToken() && sent.token != none && sent.token == sent.token,
        "ForceResendingToken: equal within one session");
  std::string code = SmsCode(sent.verification_id);
  Check(code.size() == 6, "the SMS outbox has the code (" + code + ")");
  PhoneCredential credential = provider.GetCredential(sent.verification_id.c_str(), code.c_str());
  Check(credential.is_valid() && credential.provider() == "phone", "GetCredential gives a phone credential");
  auto first = auth->SignInAndRetrieveDataWithCredential(credential);
  if (auto* result = Await(first, "SignInAndRetrieveDataWithCredential(phone)")) {
#if defined(HEARTH_FIREBASE_LEGACY_API)
    Check(result->info.provider_id == "phone", "info.provider_id is phone");
#else
    Check(result->additional_user_info.provider_id == "phone" && result->user.phone_number() == number,
          "additional_user_info.provider_id is phone");
#endif
  }
  Check(SignedIn(auth) && Current(auth).phone_number() == number && !Current(auth).is_anonymous(),
        "signed up: a user with the phone number");
  Check(SignedIn(auth) && seed::Providers(Current(auth)) == "phone" && HasPhone(Current(auth), number),
        "provider_data: phone, with the number as uid and phone_number");
  const std::string phone_uid = SignedIn(auth) ? Current(auth).uid() : "";
  ExpectError(auth->SignInWithCredential(credential), firebase::auth::kAuthErrorSessionExpired, "a code used twice");

  // Again with a new code: the same user.
  auth->SignOut();
  Outcome again = Verify(provider, number, &sent.token);
  Check(again.order == "sent,timeout," && again.verification_id != sent.verification_id && again.token != sent.token,
        "a force_resending_token sends a new code in a new session");
  Await(auth->SignInWithCredential(provider.GetCredential(again.verification_id.c_str(),
                                                          SmsCode(again.verification_id).c_str())),
        "SignInWithCredential(phone) again");
  Check(SignedIn(auth) && Current(auth).uid() == phone_uid, "the second sign-in finds the same uid");

  // The code's errors.
  auth->SignOut();
  Outcome test = Verify(provider, "+16505551234");
  const char* id = test.verification_id.c_str();
  ExpectError(auth->SignInWithCredential(provider.GetCredential(id, "654321")),
              firebase::auth::kAuthErrorInvalidVerificationCode, "a wrong code");
  Check(!SignedIn(auth), "a wrong code signs nobody in");
  ExpectError(auth->SignInWithCredential(provider.GetCredential(id, "12\r\n3456")),
              firebase::auth::kAuthErrorInvalidVerificationCode, "a code with control characters");
  ExpectError(auth->SignInWithCredential(provider.GetCredential("forged", "123456")),
              firebase::auth::kAuthErrorInvalidVerificationId, "a forged verification id");
  ExpectError(auth->SignInWithCredential(provider.GetCredential(("\r\n\x01" + test.verification_id).c_str(), "123456")),
              firebase::auth::kAuthErrorInvalidVerificationId, "a verification id with control characters");
  ExpectError(auth->SignInWithCredential(provider.GetCredential("", "123456")),
              firebase::auth::kAuthErrorMissingVerificationId, "an empty verification id");
  ExpectError(auth->SignInWithCredential(provider.GetCredential(nullptr, "123456")),
              firebase::auth::kAuthErrorMissingVerificationId, "a NULL verification id");
  ExpectError(auth->SignInWithCredential(provider.GetCredential(id, "")),
              firebase::auth::kAuthErrorMissingVerificationCode, "an empty code");
  ExpectError(auth->SignInWithCredential(provider.GetCredential(id, nullptr)),
              firebase::auth::kAuthErrorMissingVerificationCode, "a NULL code");
  Check(!SignedIn(auth), "nobody signed in by the refused codes");

  // The number's errors, through the listener with Hearth's AuthError.
  struct Case {
    std::string number;
    AuthError expected;
  };
  std::vector<Case> cases = {
      {"", firebase::auth::kAuthErrorMissingPhoneNumber},
      {"6505551234", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"+1 650 555 1234", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"+1650555\r\n1234", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"\x01+16505551234", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"+16505551234\x7f", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"\xff\xfe+16505551234", firebase::auth::kAuthErrorInvalidPhoneNumber},
      {"+" + std::string(100000, '9'), firebase::auth::kAuthErrorInvalidPhoneNumber},
#if !defined(HEARTH_FIREBASE_LEGACY_API)
      // A std::string carries a NUL: refused, not cut short to the test number before it.
      {std::string("+16505551234\0+19995550000", 25), firebase::auth::kAuthErrorInvalidPhoneNumber},
      {std::string("\0", 1), firebase::auth::kAuthErrorInvalidPhoneNumber},
#endif
  };
  for (const Case& each : cases) {
    Outcome refused = Verify(provider, each.number);
    Check(refused.order == "error,failed," && refused.error == each.expected && !refused.failure.empty() &&
              refused.failure == refused.error_message,
          "VerifyPhoneNumber(\"" + Printable(each.number) + "\"): error " + std::to_string(refused.error) + " (" +
              refused.order + " " + refused.failure + ")");
  }
#if defined(HEARTH_FIREBASE_LEGACY_API)
  Recorder null_number;
  provider.VerifyPhoneNumber(nullptr, 0, nullptr, &null_number);
  Outcome nulled = null_number.Wait();
  Check(nulled.error == firebase::auth::kAuthErrorMissingPhoneNumber,
        "VerifyPhoneNumber(nullptr): kAuthErrorMissingPhoneNumber (" + std::to_string(nulled.error) + ")");
#endif

  Lifetimes(provider);

  // Linking a number to an anonymous user keeps its uid.
  auth->SignOut();
  Await(auth->SignInAnonymously(), "SignInAnonymously");
  const std::string owner_uid = SignedIn(auth) ? Current(auth).uid() : "";
  Await(Current(auth).LinkWithCredential(TestCredential(provider, "+16505551234")), "link a number to an anonymous user");
  Check(SignedIn(auth) && Current(auth).uid() == owner_uid && !Current(auth).is_anonymous() &&
            Current(auth).phone_number() == "+16505551234" && seed::Providers(Current(auth)) == "phone",
        "linked: same uid, not anonymous, the number and provider phone");
  ExpectError(Current(auth).LinkWithCredential(TestCredential(provider, "+16505559999")),
              firebase::auth::kAuthErrorProviderAlreadyLinked, "a second number");

  // …and to an e-mail user.
  auth->SignOut();
  const char* email = "cpp-phone@example.com";
  Await(auth->CreateUserWithEmailAndPassword(email, "phone-link-1"), "CreateUserWithEmailAndPassword");
  const std::string email_uid = SignedIn(auth) ? Current(auth).uid() : "";
  Await(Current(auth).LinkWithCredential(TestCredential(provider, "+16505550000")), "link a number to an e-mail user");
  Check(SignedIn(auth) && Current(auth).uid() == email_uid && Current(auth).email() == email &&
            seed::Providers(Current(auth)) == "password,phone" && HasPhone(Current(auth), "+16505550000"),
        "linked to the e-mail user: password,phone");

  // Another account's number: kAuthErrorCredentialAlreadyInUse with an updated credential that signs in to it.
  auth->SignOut();
  Await(auth->SignInAnonymously(), "SignInAnonymously");
  auto taken = LinkAndRetrieve(auth, TestCredential(provider, "+16505551234"));
  ExpectError(taken, firebase::auth::kAuthErrorCredentialAlreadyInUse, "linking another account's number");
  firebase::auth::Credential updated = UpdatedCredential(taken.result());
  Check(updated.is_valid() && updated.provider() == "phone", "updated_credential is a phone credential");
  Check(SignedIn(auth) && Current(auth).is_anonymous() && Current(auth).phone_number().empty(),
        "the anonymous user is unchanged");
  Await(auth->SignInWithCredential(updated), "SignInWithCredential(updated_credential)");
  Check(SignedIn(auth) && Current(auth).uid() == owner_uid, "updated_credential signs in to the number's account");

  // Reauthentication with the user's number; another account's number is kAuthErrorUserMismatch.
  Await(Current(auth).Reauthenticate(TestCredential(provider, "+16505551234")), "Reauthenticate(phone)");
  Check(SignedIn(auth) && Current(auth).uid() == owner_uid, "reauthenticated: same user");
  ExpectError(Current(auth).Reauthenticate(TestCredential(provider, "+16505550000")),
              firebase::auth::kAuthErrorUserMismatch, "reauthenticating with another account's number");
  Outcome for_wrong = Verify(provider, "+16505551234");
  ExpectError(Current(auth).Reauthenticate(provider.GetCredential(for_wrong.verification_id.c_str(), "111111")),
              firebase::auth::kAuthErrorInvalidVerificationCode, "reauthenticating with a wrong code");

  // UpdatePhoneNumberCredential replaces the number; another account's is refused.
  auth->SignOut();
  Await(auth->SignInWithEmailAndPassword(email, "phone-link-1"), "SignInWithEmailAndPassword");
  Await(Current(auth).UpdatePhoneNumberCredential(TestCredential(provider, "+16505559999")),
        "UpdatePhoneNumberCredential");
  Check(SignedIn(auth) && Current(auth).phone_number() == "+16505559999" && HasPhone(Current(auth), "+16505559999") &&
            seed::Providers(Current(auth)) == "password,phone",
        "the number replaced");
  ExpectError(Current(auth).UpdatePhoneNumberCredential(TestCredential(provider, "+16505551234")),
              firebase::auth::kAuthErrorCredentialAlreadyInUse, "updating to another account's number");
#if defined(HEARTH_FIREBASE_LEGACY_API)
  firebase::auth::Credential not_phone = firebase::auth::EmailAuthProvider::GetCredential(email, "phone-link-1");
#else
  firebase::auth::PhoneAuthCredential not_phone;
#endif
  ExpectError(Current(auth).UpdatePhoneNumberCredential(not_phone), firebase::auth::kAuthErrorInvalidCredential,
              "UpdatePhoneNumberCredential without a phone credential");
  Check(SignedIn(auth) && Current(auth).phone_number() == "+16505559999", "the refused updates changed nothing");

  // Unlinking phone removes the number.
  Await(Current(auth).Unlink(PhoneAuthProvider::kProviderId), "Unlink(\"phone\")");
  Check(SignedIn(auth) && Current(auth).phone_number().empty() && seed::Providers(Current(auth)) == "password",
        "unlinked: no number, provider password");
  ExpectError(Current(auth).Unlink("phone"), firebase::auth::kAuthErrorNoSuchProvider, "unlinking phone twice");
  return seed::Finish();
}

// A server whose limits are two codes per number and three per project (the test sets them).
inline int RunLimits() {
  firebase::auth::Auth* auth = AccessAuth();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  for (int i = 0; i < 2; ++i) {
    Check(Verify(provider, "+919876543301").order == "sent,timeout,", "a code within the number's limit");
  }
  Outcome too_many = Verify(provider, "+919876543301");
  Check(too_many.order == "error,failed," && too_many.error == firebase::auth::kAuthErrorTooManyRequests,
        "a third code to the number: kAuthErrorTooManyRequests (" + std::to_string(too_many.error) + ")");
  Check(Verify(provider, "+919876543302").order == "sent,timeout,", "another number within the project's budget");
  Outcome quota = Verify(provider, "+919876543303");
  Check(quota.order == "error,failed," && quota.error == firebase::auth::kAuthErrorQuotaExceeded,
        "past the project's SMS budget: kAuthErrorQuotaExceeded (" + std::to_string(quota.error) + ")");
  Check(Verify(provider, "+16505551234").order == "sent,timeout,", "test numbers are not counted");
  return seed::Finish();
}

inline int RunOffline() {
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(AccessAuth());
  Outcome offline = Verify(provider, "+16505551234");
  Check(offline.order == "error,failed," && offline.error == firebase::auth::kAuthErrorNetworkRequestFailed,
        "a stopped server: kAuthErrorNetworkRequestFailed (" + std::to_string(offline.error) + ")");
  return seed::Finish();
}

// An account with a second factor: Firebase's C++ API has no multi-factor calls, so a first factor fails.
inline int RunSecondFactor(const std::string& email, const std::string& password) {
  firebase::auth::Auth* auth = AccessAuth();
  auth->SignOut();
  const std::string message = "Please complete a second factor challenge to finish signing into this account.";
  auto with_password = auth->SignInWithEmailAndPassword(email.c_str(), password.c_str());
  ExpectError(with_password, firebase::auth::kAuthErrorUnimplemented,
              "SignInWithEmailAndPassword of an account with a second factor");
  Check(with_password.error_message() != nullptr && with_password.error_message() == message,
        Describe("FirebaseAuth's message", with_password));
  auto with_credential = auth->SignInAndRetrieveDataWithCredential(
      firebase::auth::EmailAuthProvider::GetCredential(email.c_str(), password.c_str()));
  ExpectError(with_credential, firebase::auth::kAuthErrorUnimplemented,
              "SignInAndRetrieveDataWithCredential(password)");
  Check(!SignedIn(auth), "nobody signed in");
  auto wrong = auth->SignInWithEmailAndPassword(email.c_str(), "wrong-password");
  Await(wrong, "a wrong password", false);
  Check(wrong.error() == firebase::auth::kAuthErrorWrongPassword ||
            wrong.error() == firebase::auth::kAuthErrorInvalidCredential,
        Describe("a wrong password fails as it does without a second factor", wrong));
  return seed::Finish();
}

inline int Main(int argc, char** argv) {
  std::string phase = argc > 1 ? argv[1] : "phone";
  if (phase == "phone") return RunPhone();
  if (phase == "limits") return RunLimits();
  if (phase == "offline") return RunOffline();
  if (phase == "second-factor" && argc > 3) return RunSecondFactor(argv[2], argv[3]);
  std::fprintf(stderr, "usage: %s phone | limits | offline | second-factor EMAIL PASSWORD\n", argv[0]);
  return 2;
}

}  // namespace phone

#endif  // HEARTH_PHONE_CHECKS_H_
