// hearth::auth: Firebase's firebase::auth C++ API (Auth, User, Credential, the providers) over HearthAuth.
//
// Two generations of the API, chosen at compile time:
// - by default Firebase 11 and later: `User current_user()`, `Future<AuthResult>` from the sign-in calls;
// - with HEARTH_FIREBASE_LEGACY_API defined, Firebase 10 and earlier: `User* current_user()`,
//   `Future<User*>` and `Future<SignInResult>`, `LinkAndRetrieveDataWithCredential`.
// Every call is asynchronous: it returns a Future at once and completes on a background thread.
#ifndef HEARTH_AUTH_H_
#define HEARTH_AUTH_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hearth/app.h"
#include "hearth/auth/types.h"
#include "hearth/c_api.h"
#include "hearth/future.h"
#include "hearth/variant.h"

namespace hearth {
namespace auth {

class Auth;
class User;

namespace internal {
using hearth::internal::StartCall;
using hearth::internal::TakeString;

// A bridge handle released with the last copy.
template <typename Handle, void (*Release)(Handle)>
class Shared {
 public:
  Shared() = default;
  explicit Shared(Handle handle) {
    if (handle) handle_.reset(handle, [](Handle h) { Release(h); });
  }
  Handle get() const { return handle_ ? static_cast<Handle>(handle_.get()) : nullptr; }
  explicit operator bool() const { return static_cast<bool>(handle_); }

 private:
  std::shared_ptr<typename std::remove_pointer<Handle>::type> handle_;
};

inline void ReleaseCredential(hearth_credential credential) { hearth_credential_release(credential); }
inline void ReleaseUser(hearth_user user) { hearth_user_release(user); }
using CredentialHandle = Shared<hearth_credential, ReleaseCredential>;
using UserHandle = Shared<hearth_user, ReleaseUser>;

// Keeps the C strings of a provider's scopes and parameters alive for one bridge call.
struct ProviderArguments {
  std::vector<const char*> scopes, names, values;
};
}  // namespace internal

// MARK: Credentials

// A proof of identity for signing in, linking or reauthenticating. Copies share it.
class Credential {
 public:
  Credential() = default;
  explicit Credential(hearth_credential handle) : handle_(handle) {}

  // The provider id ("apple.com", "password", …); empty when not valid.
  std::string provider() const {
    return handle_ ? internal::TakeString(hearth_credential_provider(handle_.get())) : std::string();
  }
  bool is_valid() const { return static_cast<bool>(handle_); }

  hearth_credential handle() const { return handle_.get(); }

 private:
  internal::CredentialHandle handle_;
};

// Firebase's Android and web name for Credential, as the seeds write it.
typedef Credential AuthCredential;

class EmailAuthProvider {
 public:
  static constexpr const char* kProviderId = "password";
  static Credential GetCredential(const char* email, const char* password) {
    return Credential(hearth_credential_email(email, password));
  }
};

class FacebookAuthProvider {
 public:
  static constexpr const char* kProviderId = "facebook.com";
  static Credential GetCredential(const char* access_token) {
    return Credential(hearth_credential_oauth(kProviderId, nullptr, nullptr, access_token, nullptr));
  }
};

class GitHubAuthProvider {
 public:
  static constexpr const char* kProviderId = "github.com";
  static Credential GetCredential(const char* token) {
    return Credential(hearth_credential_oauth(kProviderId, nullptr, nullptr, token, nullptr));
  }
};

class GoogleAuthProvider {
 public:
  static constexpr const char* kProviderId = "google.com";
  static Credential GetCredential(const char* id_token, const char* access_token) {
    return Credential(hearth_credential_oauth(kProviderId, id_token, nullptr, access_token, nullptr));
  }
};

class TwitterAuthProvider {
 public:
  static constexpr const char* kProviderId = "twitter.com";
  static Credential GetCredential(const char* token, const char* secret) {
    return Credential(hearth_credential_oauth(kProviderId, nullptr, nullptr, token, secret));
  }
};

class MicrosoftAuthProvider {
 public:
  static constexpr const char* kProviderId = "microsoft.com";
};

class YahooAuthProvider {
 public:
  static constexpr const char* kProviderId = "yahoo.com";
};

class OAuthProvider {
 public:
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* access_token) {
    return Credential(hearth_credential_oauth(provider_id, id_token, nullptr, access_token, nullptr));
  }
  // Sign in with Apple and other OpenID Connect providers: the ID token and the raw nonce whose SHA-256 it carries.
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* raw_nonce,
                                  const char* access_token) {
    return Credential(hearth_credential_oauth(provider_id, id_token, raw_nonce, access_token, nullptr));
  }
};

namespace internal {
// `FacebookAuthProvider.getCredential(token)`, the Java spelling both Apple seeds use in C++ code. A variable
// hides the class of the same name, except before `::`, where only classes and namespaces are looked up, so
// `FacebookAuthProvider::GetCredential(token)` still names the class.
struct FacebookJavaSpelling {
  Credential getCredential(const char* access_token) const {
    return auth::FacebookAuthProvider::GetCredential(access_token);
  }
};
}  // namespace internal
inline constexpr internal::FacebookJavaSpelling FacebookAuthProvider{};

struct FederatedProviderData {
  FederatedProviderData() = default;
  explicit FederatedProviderData(const std::string& provider) : provider_id(provider) {}
  std::string provider_id;
};

struct FederatedOAuthProviderData : FederatedProviderData {
  FederatedOAuthProviderData() = default;
  explicit FederatedOAuthProviderData(const std::string& provider) : FederatedProviderData(provider) {}
  FederatedOAuthProviderData(const std::string& provider, std::vector<std::string> scopes,
                             std::map<std::string, std::string> custom_parameters)
      : FederatedProviderData(provider), scopes(std::move(scopes)), custom_parameters(std::move(custom_parameters)) {}

  std::vector<std::string> scopes;
  std::map<std::string, std::string> custom_parameters;

  // The C strings of one bridge call (valid while this data lives and is not changed).
  internal::ProviderArguments Arguments() const {
    internal::ProviderArguments arguments;
    for (const std::string& scope : scopes) arguments.scopes.push_back(scope.c_str());
    for (const auto& parameter : custom_parameters) {
      arguments.names.push_back(parameter.first.c_str());
      arguments.values.push_back(parameter.second.c_str());
    }
    return arguments;
  }
};

// A provider whose sign-in runs in a browser: the system browser and a loopback listener on a desktop
// (hearth::SetBrowser puts in the app's own).
class FederatedAuthProvider {
 public:
  virtual ~FederatedAuthProvider() = default;
  virtual const FederatedOAuthProviderData* oauth_data() const { return nullptr; }
};

class FederatedOAuthProvider : public FederatedAuthProvider {
 public:
  FederatedOAuthProvider() = default;
  explicit FederatedOAuthProvider(const FederatedOAuthProviderData& provider_data) : data_(provider_data) {}
  void SetProviderData(const FederatedOAuthProviderData& provider_data) { data_ = provider_data; }
  const FederatedOAuthProviderData* oauth_data() const override { return &data_; }

 private:
  FederatedOAuthProviderData data_;
};

// MARK: Phone numbers

#if !defined(HEARTH_FIREBASE_LEGACY_API)
// Where a platform shows the verification UI: Firebase's Activity (Android) or UIView (Apple). Not used by Hearth.
typedef void* UIParent;

struct PhoneAuthOptions;

// A phone number proved by a verification code (PhoneAuthProvider::GetCredential), or by the server's temporary
// proof (the updated_credential of kAuthErrorCredentialAlreadyInUse when another account has the number).
class PhoneAuthCredential : public Credential {
 public:
  PhoneAuthCredential() = default;
  explicit PhoneAuthCredential(hearth_credential handle) : Credential(handle) {}
  PhoneAuthCredential(const PhoneAuthCredential&) = default;
  PhoneAuthCredential& operator=(const PhoneAuthCredential&) = default;

  // The code Android read from the SMS by itself; always empty here, where no SMS is read automatically.
  std::string sms_code() const { return std::string(); }
};
#endif

// Phone number sign-in: VerifyPhoneNumber sends a code by SMS and tells a Listener the verification id; the
// credential of that id and the code the person typed signs in (Auth::SignInWithCredential), links
// (User::LinkWithCredential), reauthenticates or updates the number (User::UpdatePhoneNumberCredential).
//
// As on iOS there is no automatic retrieval of the SMS: OnVerificationCompleted is never called, and
// OnCodeAutoRetrievalTimeOut comes right after OnCodeSent (with the same verification id). Every callback comes on
// a background thread, the one that completes Futures, never during VerifyPhoneNumber; a failure calls
// OnVerificationFailedWithError (Hearth's, with the AuthError) and then OnVerificationFailed. A listener being
// destroyed waits for a callback of its under way on another thread, and is not called afterwards. On a development
// server the codes are shown at /sandbox/sms; the project's test phone numbers get their fixed code and no SMS.
class PhoneAuthProvider {
 public:
  // Identifies the verification session a code was sent in (Listener::OnCodeSent). Hearth sends a new code for
  // every VerifyPhoneNumber call, so passing one back is accepted and changes nothing.
  class ForceResendingToken {
   public:
    ForceResendingToken() = default;
    ForceResendingToken(const ForceResendingToken&) = default;
    ~ForceResendingToken() = default;
    ForceResendingToken& operator=(const ForceResendingToken&) = default;
    // Whether both tokens come from the same session (two default tokens are equal).
    bool operator==(const ForceResendingToken& rhs) const { return session_ == rhs.session_; }
    bool operator!=(const ForceResendingToken& rhs) const { return !(*this == rhs); }

   private:
    friend class PhoneAuthProvider;
    std::string session_;
  };

  class Listener;

 private:
  // What a listener shares with its calls under way: cleared, under the lock, when the listener is destroyed.
  struct ListenerState {
    std::recursive_mutex mutex;
    Listener* listener = nullptr;
  };

 public:
  // Receives the outcome of VerifyPhoneNumber (see the class comment for the threads).
  class Listener {
   public:
    Listener() : state_(std::make_shared<ListenerState>()) { state_->listener = this; }
    // A copy is a listener of its own: it receives none of the original's calls.
    Listener(const Listener&) : Listener() {}
    Listener& operator=(const Listener&) { return *this; }
    virtual ~Listener() {
      std::lock_guard<std::recursive_mutex> lock(state_->mutex);
      state_->listener = nullptr;
    }

#if defined(HEARTH_FIREBASE_LEGACY_API)
    virtual void OnVerificationCompleted(Credential credential) = 0;
#else
    virtual void OnVerificationCompleted(PhoneAuthCredential credential) = 0;
#endif
    // `error` is the reason, as Future::error_message() gives it.
    virtual void OnVerificationFailed(const std::string& error) = 0;
    virtual void OnCodeSent(const std::string& /*verification_id*/,
                            const ForceResendingToken& /*force_resending_token*/) {}
    virtual void OnCodeAutoRetrievalTimeOut(const std::string& /*verification_id*/) {}
    // Hearth's addition (Firebase's listener has only the message): the AuthError of the failure
    // (kAuthErrorInvalidPhoneNumber, kAuthErrorMissingPhoneNumber, kAuthErrorTooManyRequests,
    // kAuthErrorQuotaExceeded, kAuthErrorNetworkRequestFailed, …), called just before OnVerificationFailed.
    virtual void OnVerificationFailedWithError(AuthError /*error*/, const std::string& /*message*/) {}

   private:
    friend class PhoneAuthProvider;
    std::shared_ptr<ListenerState> state_;
  };

  // The provider of `auth`, owned by it. A nullptr `auth` gives a provider whose calls fail (kAuthErrorFailure
  // for VerifyPhoneNumber, an invalid credential from GetCredential).
  static PhoneAuthProvider& GetInstance(Auth* auth);

#if defined(HEARTH_FIREBASE_LEGACY_API)
  // Firebase 10's largest auto-retrieval time-out (not used: there is no auto-retrieval).
  static constexpr uint32_t kMaxTimeoutMs = 3000;
  // Sends a code to `phone_number` (E.164: "+" and digits). The time-out and the token are accepted and not used.
  void VerifyPhoneNumber(const char* phone_number, uint32_t auto_verify_time_out_ms,
                         const ForceResendingToken* force_resending_token, Listener* listener);
  Credential GetCredential(const char* verification_id, const char* verification_code);
#else
  // Sends a code to options.phone_number (E.164: "+" and digits; a NUL byte in it is kAuthErrorInvalidPhoneNumber).
  // The time-out, the token and the UI parent are accepted and not used.
  void VerifyPhoneNumber(const PhoneAuthOptions& options, PhoneAuthProvider::Listener* listener);
  PhoneAuthCredential GetCredential(const char* verification_id, const char* verification_code);
#endif

  static constexpr const char* kProviderId = "phone";

 private:
  friend class Auth;
  explicit PhoneAuthProvider(Auth* auth) : auth_(auth) {}
  ~PhoneAuthProvider() = default;
  PhoneAuthProvider(const PhoneAuthProvider&) = delete;
  PhoneAuthProvider& operator=(const PhoneAuthProvider&) = delete;

  void Verify(const char* phone_number, size_t length, Listener* listener);
  // The bridge's completion of Verify: the listener's callbacks, on the completing thread.
  static void Finish(void* context, int error, const char* message, hearth_result result);

  Auth* auth_;
};

#if !defined(HEARTH_FIREBASE_LEGACY_API)
// What VerifyPhoneNumber sends a code for.
struct PhoneAuthOptions {
  PhoneAuthOptions() {}

  // From Listener::OnCodeSent, to send another code in the same session; accepted and not used.
  PhoneAuthProvider::ForceResendingToken* force_resending_token = nullptr;
  // The number, E.164: "+" and digits.
  std::string phone_number;
  // Android's SMS auto-retrieval time-out; not used.
  uint32_t timeout_milliseconds = 0;
  // Not used.
  UIParent ui_parent = nullptr;
};
#endif

// MARK: Users

class UserInfoInterface {
 public:
  UserInfoInterface() = default;
  virtual ~UserInfoInterface() = default;
  UserInfoInterface(const UserInfoInterface&) = default;
  UserInfoInterface& operator=(const UserInfoInterface&) = default;

  virtual std::string uid() const { return uid_; }
  virtual std::string email() const { return email_; }
  virtual std::string display_name() const { return display_name_; }
  virtual std::string photo_url() const { return photo_url_; }
  virtual std::string provider_id() const { return provider_id_; }
  virtual std::string phone_number() const { return phone_number_; }

 protected:
  friend class User;
  std::string uid_, email_, display_name_, photo_url_, provider_id_, phone_number_;
};

struct UserMetadata {
  uint64_t last_sign_in_timestamp = 0;
  uint64_t creation_timestamp = 0;
};

struct UserProfile {
  const char* display_name = nullptr;
  const char* photo_url = nullptr;
};

struct AdditionalUserInfo {
  std::string provider_id;
  std::string user_name;
  std::map<Variant, Variant> profile;
  // Set with kAuthErrorCredentialAlreadyInUse: the credential that signs in to the account that has it.
  Credential updated_credential;
};

#if defined(HEARTH_FIREBASE_LEGACY_API)
struct SignInResult;
using DataResult = SignInResult;  // what the …AndRetrieveData calls give
using UserResult = User*;         // what the plain sign-in calls give
#else
struct AuthResult;
using DataResult = AuthResult;
using UserResult = User;
#endif

// A signed-in account: a handle to HearthAuth's live user, so fields read now reflect the latest change.
class User : public UserInfoInterface {
 public:
  User() = default;
  User(internal::UserHandle handle, Auth* auth) : auth_(auth) { SetHandle(std::move(handle)); }
  User(const User& other) : UserInfoInterface(other), auth_(other.auth_) { SetHandle(other.Handle()); }
  User& operator=(const User& other) {
    UserInfoInterface::operator=(other);
    SetHandle(other.Handle());
    auth_ = other.auth_;
    return *this;
  }

  bool is_valid() const { return static_cast<bool>(Handle()); }
  std::string uid() const override { return Field(0); }
  std::string email() const override { return Field(1); }
  std::string display_name() const override { return Field(2); }
  std::string photo_url() const override { return Field(3); }
  std::string provider_id() const override { return Field(4); }
  std::string phone_number() const override { return Field(5); }
  bool is_anonymous() const { return Flag(0); }
  bool is_email_verified() const { return Flag(1); }
  UserMetadata metadata() const {
    UserMetadata metadata;
    if (auto handle = Handle()) {
      metadata.last_sign_in_timestamp = hearth_user_timestamp(handle.get(), 0);
      metadata.creation_timestamp = hearth_user_timestamp(handle.get(), 1);
    }
    return metadata;
  }

#if defined(HEARTH_FIREBASE_LEGACY_API)
  // Firebase 10: pointers owned by the user, valid until the next call of provider_data().
  const std::vector<UserInfoInterface*>& provider_data() const {
    std::lock_guard<std::mutex> lock(provider_mutex_);
    provider_storage_ = ProviderData();
    provider_pointers_.clear();
    for (UserInfoInterface& info : provider_storage_) provider_pointers_.push_back(&info);
    return provider_pointers_;
  }
#else
  std::vector<UserInfoInterface> provider_data() const { return ProviderData(); }
#endif

  // Java's spelling of display_name(), as seed 002 writes it.
  std::string getDisplayName() const { return display_name(); }

  Future<std::string> GetToken(bool force_refresh);
  Future<DataResult> Reauthenticate(const Credential& credential);
  Future<DataResult> ReauthenticateAndRetrieveData(const Credential& credential);
  Future<DataResult> ReauthenticateWithProvider(FederatedAuthProvider* provider) const;
  Future<DataResult> ReauthenticateWithProvider(const FederatedOAuthProviderData& provider_data) const;
#if defined(HEARTH_FIREBASE_LEGACY_API)
  Future<User*> LinkWithCredential(const Credential& credential);
  Future<SignInResult> LinkAndRetrieveDataWithCredential(const Credential& credential);
  Future<SignInResult> linkWithCredential(const Credential& credential);  // seed 002's Java spelling
  Future<User*> Unlink(const char* provider);
  Future<void> UpdateUserProfile(const UserProfile& profile);
  // Sets or replaces the user's phone number with a phone credential's (PhoneAuthProvider::GetCredential).
  Future<User*> UpdatePhoneNumberCredential(const Credential& credential);
#else
  Future<AuthResult> LinkWithCredential(const Credential& credential);
  Future<AuthResult> linkWithCredential(const Credential& credential);  // the Java spelling
  Future<AuthResult> Unlink(const char* provider);
  Future<void> UpdateUserProfile(const UserProfile& profile);
  // Sets or replaces the user's phone number with a phone credential's (PhoneAuthProvider::GetCredential).
  Future<User> UpdatePhoneNumberCredential(const PhoneAuthCredential& credential);
#endif
  Future<DataResult> LinkWithProvider(FederatedAuthProvider* provider) const;
  Future<void> UpdatePassword(const char* password);
  Future<void> SendEmailVerification();
  Future<void> SendEmailVerificationBeforeUpdatingEmail(const char* email);
  Future<void> Reload();
  Future<void> Delete();

  // HearthAuth's user, for the API's own use.
  internal::UserHandle Handle() const { return std::atomic_load(&shared_)->handle; }
  void SetHandle(internal::UserHandle handle) {
    std::atomic_store(&shared_, std::make_shared<const Holder>(Holder{std::move(handle)}));
  }

 private:
  struct Holder {
    internal::UserHandle handle;
  };

  std::string Field(int field) const {
    auto handle = Handle();
    return handle ? internal::TakeString(hearth_user_string(handle.get(), field)) : std::string();
  }
  bool Flag(int flag) const {
    auto handle = Handle();
    return handle && hearth_user_flag(handle.get(), flag) != 0;
  }
  std::vector<UserInfoInterface> ProviderData() const {
    std::vector<UserInfoInterface> infos;
    auto handle = Handle();
    if (!handle) return infos;
    size_t count = hearth_user_provider_count(handle.get());
    for (size_t index = 0; index < count; ++index) {
      UserInfoInterface info;
      std::string* fields[] = {&info.uid_, &info.email_, &info.display_name_,
                               &info.photo_url_, &info.provider_id_, &info.phone_number_};
      for (int field = 0; field < 6; ++field) {
        *fields[field] = internal::TakeString(hearth_user_provider_string(handle.get(), index, field));
      }
      infos.push_back(info);
    }
    return infos;
  }
  Future<DataResult> WithProvider(int what, const FederatedOAuthProviderData* data) const;
  Future<DataResult> WithCredential(bool link, const Credential& credential);
  // Runs `start` with this user's handle, or fails at once with kAuthErrorNoSignedInUser when there is none.
  template <typename T>
  Future<T> UserCall(std::function<T(hearth_result, int)> convert,
                     std::function<void(hearth_user, hearth_completion, void*)> start) const;

  // Swapped whole (atomically) when the legacy API's current user changes.
  std::shared_ptr<const Holder> shared_ = std::make_shared<const Holder>();
  Auth* auth_ = nullptr;
#if defined(HEARTH_FIREBASE_LEGACY_API)
  mutable std::mutex provider_mutex_;
  mutable std::vector<UserInfoInterface> provider_storage_;
  mutable std::vector<UserInfoInterface*> provider_pointers_;
#endif
  friend class Auth;
};

#if defined(HEARTH_FIREBASE_LEGACY_API)
struct SignInResult {
  User* user = nullptr;
  AdditionalUserInfo info;
  UserMetadata meta;
};
#else
struct AuthResult {
  AdditionalUserInfo additional_user_info;
  Credential credential;
  User user;
};
#endif

struct FetchProvidersResult {
  std::vector<std::string> providers;
};

// MARK: Listeners

class AuthStateListener {
 public:
  virtual ~AuthStateListener();
  virtual void OnAuthStateChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  std::mutex mutex_;
  std::vector<Auth*> auths_;
};

class IdTokenListener {
 public:
  virtual ~IdTokenListener();
  virtual void OnIdTokenChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  std::mutex mutex_;
  std::vector<Auth*> auths_;
};

// MARK: Auth

class Auth {
 public:
  // The Auth of `app`, made on first use; one per app, deleted with it.
  static Auth* GetAuth(App* app, InitResult* init_result_out = nullptr) {
    if (init_result_out) *init_result_out = kInitResultSuccess;
    if (!app) return nullptr;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (!app->auth_) {
      Auth* auth = new Auth(app);
      app->auth_ = auth;
      app->auth_owner_ = std::shared_ptr<void>(auth, [](void* pointer) { delete static_cast<Auth*>(pointer); });
    }
    return app->auth_;
  }

  ~Auth() {
    std::vector<std::pair<void*, uint64_t>> listeners;
    {
      std::lock_guard<std::mutex> lock(listener_mutex_);
      for (auto& entry : state_listeners_) listeners.push_back({entry.first, entry.second.handle});
      for (auto& entry : token_listeners_) listeners.push_back({entry.first, entry.second.handle});
    }
    for (auto& listener : listeners) hearth_auth_remove_listener(app_->handle(), listener.second);
  }

  App& app() { return *app_; }

#if defined(HEARTH_FIREBASE_LEGACY_API)
  // The signed-in user, owned by this Auth; nullptr when signed out.
  User* current_user() { return LegacyCurrentUser(); }
  User& getCurrentUser() { return *LegacyCurrentUser(); }  // seed 002's Java spelling
#else
  // The signed-in user; not is_valid() when signed out.
  User current_user() { return User(internal::UserHandle(hearth_auth_current_user(app_->handle())), this); }
  User getCurrentUser() { return current_user(); }  // the Java spelling
#endif

  void SignOut() { hearth_auth_sign_out(app_->handle()); }

  std::string language_code() const { return internal::TakeString(hearth_auth_language_code(app_->handle())); }
  void set_language_code(const char* language_code) { hearth_auth_set_language_code(app_->handle(), language_code); }
  void UseAppLanguage() { hearth_auth_set_language_code(app_->handle(), nullptr); }
  void UseEmulator(std::string host, uint32_t port) { hearth_auth_use_emulator(app_->handle(), host.c_str(), port); }

#if defined(HEARTH_FIREBASE_LEGACY_API)
  Future<User*> SignInAnonymously();
  Future<User*> SignInWithEmailAndPassword(const char* email, const char* password);
  Future<User*> CreateUserWithEmailAndPassword(const char* email, const char* password);
  Future<User*> SignInWithCustomToken(const char* token);
#else
  Future<AuthResult> SignInAnonymously();
  Future<AuthResult> SignInWithEmailAndPassword(const char* email, const char* password);
  Future<AuthResult> CreateUserWithEmailAndPassword(const char* email, const char* password);
  Future<AuthResult> SignInWithCustomToken(const char* token);
#endif
  Future<UserResult> SignInWithCredential(const Credential& credential);
  Future<DataResult> SignInAndRetrieveDataWithCredential(const Credential& credential);
  Future<DataResult> SignInWithProvider(FederatedAuthProvider* provider);
  // The seeds pass the provider's data itself.
  Future<DataResult> SignInWithProvider(const FederatedOAuthProviderData& provider_data);
  Future<FetchProvidersResult> FetchProvidersForEmail(const char* email);
  Future<void> SendPasswordResetEmail(const char* email);

  void AddAuthStateListener(AuthStateListener* listener) { AddListener(listener, false); }
  void RemoveAuthStateListener(AuthStateListener* listener) { RemoveListener(listener, false); }
  void AddIdTokenListener(IdTokenListener* listener) { AddListener(listener, true); }
  void RemoveIdTokenListener(IdTokenListener* listener) { RemoveListener(listener, true); }

  // For the API's own use: results of the bridge as this generation's types.
  DataResult MakeDataResult(hearth_result result);
  UserResult MakeUserResult(hearth_result result);
  hearth_app handle() const { return app_->handle(); }

 private:
  friend class PhoneAuthProvider;
  explicit Auth(App* app) : app_(app) {}
  Auth(const Auth&) = delete;
  Auth& operator=(const Auth&) = delete;

  struct Registration {
    uint64_t handle;
    std::pair<Auth*, void*>* context;
  };

  template <typename Listener>
  void AddListener(Listener* listener, bool id_token) {
    if (!listener) return;
    auto& registry = id_token ? token_listeners_ : state_listeners_;
    {
      std::lock_guard<std::mutex> lock(listener_mutex_);
      if (registry.count(listener)) return;
    }
    {
      std::lock_guard<std::mutex> lock(listener->mutex_);
      listener->auths_.push_back(this);
    }
    auto* context = new std::pair<Auth*, void*>(this, listener);
    hearth_listener call = [](void* pointer) {
      auto* pair = static_cast<std::pair<Auth*, void*>*>(pointer);
      Notify(static_cast<Listener*>(pair->second), pair->first);
    };
    // Held until the listener is in the registry: its first call, which may come at once on another thread,
    // can then remove it. Adding only queues that call, so holding the lock cannot deadlock.
    std::lock_guard<std::mutex> lock(listener_mutex_);
    uint64_t handle = hearth_auth_add_listener(app_->handle(), id_token ? 1 : 0, call, context);
    registry[listener] = Registration{handle, context};
  }

  template <typename Listener>
  void RemoveListener(Listener* listener, bool id_token) {
    Registration registration{0, nullptr};
    {
      std::lock_guard<std::mutex> lock(listener_mutex_);
      auto& registry = id_token ? token_listeners_ : state_listeners_;
      auto found = registry.find(listener);
      if (found == registry.end()) return;
      registration = found->second;
      registry.erase(found);
    }
    // Returns once no call of it is under way (unless called from the listener itself).
    hearth_auth_remove_listener(app_->handle(), registration.handle);
    delete registration.context;
    std::lock_guard<std::mutex> lock(listener->mutex_);
    auto& auths = listener->auths_;
    auths.erase(std::remove(auths.begin(), auths.end(), this), auths.end());
  }

  static void Notify(AuthStateListener* listener, Auth* auth) { listener->OnAuthStateChanged(auth); }
  static void Notify(IdTokenListener* listener, Auth* auth) { listener->OnIdTokenChanged(auth); }

#if defined(HEARTH_FIREBASE_LEGACY_API)
  // Firebase 10's one User object per Auth, pointed at whoever is signed in now.
  User* LegacyCurrentUser() {
    internal::UserHandle handle(hearth_auth_current_user(app_->handle()));
    std::lock_guard<std::mutex> lock(user_mutex_);
    if (!handle) return nullptr;
    if (!legacy_user_) {
      legacy_user_.reset(new User(handle, this));
    } else if (!hearth_user_same(legacy_user_->Handle().get(), handle.get())) {
      legacy_user_->SetHandle(handle);
    }
    return legacy_user_.get();
  }
  std::mutex user_mutex_;
  std::unique_ptr<User> legacy_user_;
#endif

  App* app_;
  PhoneAuthProvider phone_auth_provider_{this};
  std::mutex listener_mutex_;
  std::map<void*, Registration> state_listeners_;
  std::map<void*, Registration> token_listeners_;
};

// MARK: Results

namespace internal {

inline Variant MakeVariant(hearth_value value) {
  if (!value) return Variant();
  switch (hearth_value_type(value)) {
    case 1: return Variant(hearth_value_bool(value) != 0);
    case 2: return Variant(static_cast<int64_t>(hearth_value_int(value)));
    case 3: return Variant(hearth_value_double(value));
    case 4: return Variant(TakeString(hearth_value_string(value)));
    case 5: {
      std::vector<Variant> items;
      for (size_t index = 0; index < hearth_value_count(value); ++index) {
        items.push_back(MakeVariant(hearth_value_borrow_child(value, index)));
      }
      return Variant(items);
    }
    case 6: {
      std::map<Variant, Variant> entries;
      for (size_t index = 0; index < hearth_value_count(value); ++index) {
        entries[Variant(TakeString(hearth_value_key(value, index)))] =
            MakeVariant(hearth_value_borrow_child(value, index));
      }
      return Variant(entries);
    }
    default: return Variant();
  }
}

inline AdditionalUserInfo MakeAdditionalUserInfo(hearth_result result) {
  AdditionalUserInfo info;
  info.provider_id = TakeString(hearth_result_string(result, 0));
  info.user_name = TakeString(hearth_result_string(result, 1));
  Variant profile = MakeVariant(hearth_result_borrow_profile(result));
  if (profile.is_map()) info.profile = profile.map();
  info.updated_credential = Credential(hearth_result_updated_credential(result));
  return info;
}

inline UserMetadata MakeMetadata(const User* user) { return user ? user->metadata() : UserMetadata(); }

}  // namespace internal

#if defined(HEARTH_FIREBASE_LEGACY_API)
inline SignInResult Auth::MakeDataResult(hearth_result result) {
  SignInResult made;
  made.info = internal::MakeAdditionalUserInfo(result);
  made.user = LegacyCurrentUser();
  made.meta = internal::MakeMetadata(made.user);
  return made;
}
inline User* Auth::MakeUserResult(hearth_result) { return LegacyCurrentUser(); }
#else
inline AuthResult Auth::MakeDataResult(hearth_result result) {
  AuthResult made;
  made.additional_user_info = internal::MakeAdditionalUserInfo(result);
  made.credential = Credential(hearth_result_credential(result));
  made.user = User(internal::UserHandle(hearth_result_user(result)), this);
  return made;
}
inline User Auth::MakeUserResult(hearth_result result) {
  return User(internal::UserHandle(hearth_result_user(result)), this);
}
#endif

// MARK: Auth's calls

#if defined(HEARTH_FIREBASE_LEGACY_API)
#define HEARTH_SIGN_IN_TYPE User*
#define HEARTH_SIGN_IN_MAKE MakeUserResult
#else
#define HEARTH_SIGN_IN_TYPE AuthResult
#define HEARTH_SIGN_IN_MAKE MakeDataResult
#endif

inline Future<HEARTH_SIGN_IN_TYPE> Auth::SignInAnonymously() {
  return internal::StartCall<HEARTH_SIGN_IN_TYPE>(
      [this](hearth_result r, int) { return HEARTH_SIGN_IN_MAKE(r); },
      [this](hearth_completion done, void* context) { hearth_auth_sign_in_anonymously(handle(), done, context); });
}

inline Future<HEARTH_SIGN_IN_TYPE> Auth::SignInWithEmailAndPassword(const char* email, const char* password) {
  return internal::StartCall<HEARTH_SIGN_IN_TYPE>(
      [this](hearth_result r, int) { return HEARTH_SIGN_IN_MAKE(r); },
      [&](hearth_completion done, void* context) {
        hearth_auth_sign_in_with_email(handle(), email, password, done, context);
      });
}

inline Future<HEARTH_SIGN_IN_TYPE> Auth::CreateUserWithEmailAndPassword(const char* email, const char* password) {
  return internal::StartCall<HEARTH_SIGN_IN_TYPE>(
      [this](hearth_result r, int) { return HEARTH_SIGN_IN_MAKE(r); },
      [&](hearth_completion done, void* context) { hearth_auth_create_user(handle(), email, password, done, context); });
}

inline Future<HEARTH_SIGN_IN_TYPE> Auth::SignInWithCustomToken(const char* token) {
  return internal::StartCall<HEARTH_SIGN_IN_TYPE>(
      [this](hearth_result r, int) { return HEARTH_SIGN_IN_MAKE(r); },
      [&](hearth_completion done, void* context) {
        hearth_auth_sign_in_with_custom_token(handle(), token, done, context);
      });
}

#undef HEARTH_SIGN_IN_TYPE
#undef HEARTH_SIGN_IN_MAKE

inline Future<UserResult> Auth::SignInWithCredential(const Credential& credential) {
  return internal::StartCall<UserResult>(
      [this](hearth_result r, int) { return MakeUserResult(r); },
      [&](hearth_completion done, void* context) {
        hearth_auth_sign_in_with_credential(handle(), credential.handle(), done, context);
      });
}

inline Future<DataResult> Auth::SignInAndRetrieveDataWithCredential(const Credential& credential) {
  return internal::StartCall<DataResult>(
      [this](hearth_result r, int) { return MakeDataResult(r); },
      [&](hearth_completion done, void* context) {
        hearth_auth_sign_in_with_credential(handle(), credential.handle(), done, context);
      });
}

inline Future<DataResult> Auth::SignInWithProvider(FederatedAuthProvider* provider) {
  const FederatedOAuthProviderData* data = provider ? provider->oauth_data() : nullptr;
  if (!data) return hearth::internal::FailedFuture<DataResult>(kAuthErrorInvalidProviderId, "No provider.");
  return SignInWithProvider(*data);
}

inline Future<DataResult> Auth::SignInWithProvider(const FederatedOAuthProviderData& provider_data) {
  internal::ProviderArguments arguments = provider_data.Arguments();
  return internal::StartCall<DataResult>(
      [this](hearth_result r, int) { return MakeDataResult(r); },
      [&](hearth_completion done, void* context) {
        hearth_auth_sign_in_with_provider(handle(), provider_data.provider_id.c_str(), arguments.scopes.data(),
                                          arguments.scopes.size(), arguments.names.data(), arguments.values.data(),
                                          arguments.names.size(), done, context);
      });
}

inline Future<FetchProvidersResult> Auth::FetchProvidersForEmail(const char* email) {
  return internal::StartCall<FetchProvidersResult>(
      [](hearth_result r, int) {
        FetchProvidersResult result;
        for (size_t index = 0; index < hearth_result_list_count(r); ++index) {
          result.providers.push_back(internal::TakeString(hearth_result_list_item(r, index)));
        }
        return result;
      },
      [&](hearth_completion done, void* context) { hearth_auth_fetch_providers(handle(), email, done, context); });
}

inline Future<void> Auth::SendPasswordResetEmail(const char* email) {
  return internal::StartCall<void>(nullptr, [&](hearth_completion done, void* context) {
    hearth_auth_send_password_reset(handle(), email, done, context);
  });
}

// MARK: User's calls

template <typename T>
inline Future<T> User::UserCall(std::function<T(hearth_result, int)> convert,
                                std::function<void(hearth_user, hearth_completion, void*)> start) const {
  auto handle = Handle();
  if (!handle || !auth_) return hearth::internal::FailedFuture<T>(kAuthErrorNoSignedInUser, "No user is signed in.");
  return internal::StartCall<T>(std::move(convert), [&](hearth_completion done, void* context) {
    start(handle.get(), done, context);
  });
}

inline Future<std::string> User::GetToken(bool force_refresh) {
  return UserCall<std::string>(
      [](hearth_result r, int) { return internal::TakeString(hearth_result_string(r, 2)); },
      [&](hearth_user user, hearth_completion done, void* context) {
        hearth_user_get_token(user, force_refresh ? 1 : 0, done, context);
      });
}

inline Future<DataResult> User::WithCredential(bool link, const Credential& credential) {
  Auth* auth = auth_;
  return UserCall<DataResult>([auth](hearth_result r, int) { return auth->MakeDataResult(r); },
                              [&](hearth_user user, hearth_completion done, void* context) {
                                if (link) {
                                  hearth_user_link(user, credential.handle(), done, context);
                                } else {
                                  hearth_user_reauthenticate(user, credential.handle(), done, context);
                                }
                              });
}

inline Future<DataResult> User::WithProvider(int what, const FederatedOAuthProviderData* data) const {
  if (is_valid() && !data) {
    return hearth::internal::FailedFuture<DataResult>(kAuthErrorInvalidProviderId, "No provider.");
  }
  Auth* auth = auth_;
  internal::ProviderArguments arguments = data ? data->Arguments() : internal::ProviderArguments();
  return UserCall<DataResult>([auth](hearth_result r, int) { return auth->MakeDataResult(r); },
                              [&](hearth_user user, hearth_completion done, void* context) {
                                hearth_user_with_provider(auth->handle(), user, what, data->provider_id.c_str(),
                                                          arguments.scopes.data(), arguments.scopes.size(),
                                                          arguments.names.data(), arguments.values.data(),
                                                          arguments.names.size(), done, context);
                              });
}

inline Future<DataResult> User::Reauthenticate(const Credential& credential) {
  return WithCredential(false, credential);
}
inline Future<DataResult> User::ReauthenticateAndRetrieveData(const Credential& credential) {
  return WithCredential(false, credential);
}
inline Future<DataResult> User::ReauthenticateWithProvider(FederatedAuthProvider* provider) const {
  return WithProvider(2, provider ? provider->oauth_data() : nullptr);
}
inline Future<DataResult> User::ReauthenticateWithProvider(const FederatedOAuthProviderData& provider_data) const {
  return WithProvider(2, &provider_data);
}
inline Future<DataResult> User::LinkWithProvider(FederatedAuthProvider* provider) const {
  return WithProvider(1, provider ? provider->oauth_data() : nullptr);
}

#if defined(HEARTH_FIREBASE_LEGACY_API)
inline Future<SignInResult> User::LinkAndRetrieveDataWithCredential(const Credential& credential) {
  return WithCredential(true, credential);
}
inline Future<SignInResult> User::linkWithCredential(const Credential& credential) {
  return WithCredential(true, credential);
}
inline Future<User*> User::LinkWithCredential(const Credential& credential) {
  Auth* auth = auth_;
  return UserCall<User*>([auth](hearth_result r, int) { return auth->MakeUserResult(r); },
                         [&](hearth_user user, hearth_completion done, void* context) {
                           hearth_user_link(user, credential.handle(), done, context);
                         });
}
#else
inline Future<AuthResult> User::LinkWithCredential(const Credential& credential) {
  return WithCredential(true, credential);
}
inline Future<AuthResult> User::linkWithCredential(const Credential& credential) {
  return WithCredential(true, credential);
}
#endif

// Firebase 10 gives the user, Firebase 11 an AuthResult: both are what the generation calls UserResult/DataResult.
#if defined(HEARTH_FIREBASE_LEGACY_API)
inline Future<User*> User::Unlink(const char* provider) {
  Auth* auth = auth_;
  return UserCall<User*>([auth](hearth_result r, int) { return auth->MakeUserResult(r); },
#else
inline Future<AuthResult> User::Unlink(const char* provider) {
  Auth* auth = auth_;
  return UserCall<AuthResult>([auth](hearth_result r, int) { return auth->MakeDataResult(r); },
#endif
                              [&](hearth_user user, hearth_completion done, void* context) {
                                hearth_user_unlink(user, provider, done, context);
                              });
}

inline Future<void> User::Reload() { return UserCall<void>(nullptr, hearth_user_reload); }
inline Future<void> User::Delete() { return UserCall<void>(nullptr, hearth_user_delete); }
inline Future<void> User::SendEmailVerification() {
  return UserCall<void>(nullptr, [](hearth_user user, hearth_completion done, void* context) {
    hearth_user_send_email_verification(user, nullptr, done, context);
  });
}
inline Future<void> User::SendEmailVerificationBeforeUpdatingEmail(const char* email) {
  return UserCall<void>(nullptr, [&](hearth_user user, hearth_completion done, void* context) {
    hearth_user_send_email_verification(user, email ? email : "", done, context);
  });
}
inline Future<void> User::UpdatePassword(const char* password) {
  return UserCall<void>(nullptr, [&](hearth_user user, hearth_completion done, void* context) {
    hearth_user_update_password(user, password, done, context);
  });
}
inline Future<void> User::UpdateUserProfile(const UserProfile& profile) {
  return UserCall<void>(nullptr, [&](hearth_user user, hearth_completion done, void* context) {
    hearth_user_update_profile(user, profile.display_name, profile.photo_url, done, context);
  });
}

// The legacy generation's Credential and the current one's PhoneAuthCredential.
#if defined(HEARTH_FIREBASE_LEGACY_API)
inline Future<User*> User::UpdatePhoneNumberCredential(const Credential& credential) {
#else
inline Future<User> User::UpdatePhoneNumberCredential(const PhoneAuthCredential& credential) {
#endif
  Auth* auth = auth_;
  return UserCall<UserResult>([auth](hearth_result r, int) { return auth->MakeUserResult(r); },
                              [&](hearth_user user, hearth_completion done, void* context) {
                                hearth_user_update_phone_number(user, credential.handle(), done, context);
                              });
}

// MARK: PhoneAuthProvider's calls

inline PhoneAuthProvider& PhoneAuthProvider::GetInstance(Auth* auth) {
  if (!auth) {
    static PhoneAuthProvider detached(nullptr);
    return detached;
  }
  return auth->phone_auth_provider_;
}

#if defined(HEARTH_FIREBASE_LEGACY_API)
inline void PhoneAuthProvider::VerifyPhoneNumber(const char* phone_number, uint32_t, const ForceResendingToken*,
                                                 Listener* listener) {
  Verify(phone_number, phone_number ? std::strlen(phone_number) : 0, listener);
}
inline Credential PhoneAuthProvider::GetCredential(const char* verification_id, const char* verification_code) {
  return Credential(hearth_credential_phone(auth_ ? auth_->handle() : nullptr, verification_id, verification_code));
}
#else
inline void PhoneAuthProvider::VerifyPhoneNumber(const PhoneAuthOptions& options, PhoneAuthProvider::Listener* listener) {
  // Pointer and length: a NUL inside the string reaches the bridge, which refuses it, instead of cutting it short.
  Verify(options.phone_number.data(), options.phone_number.size(), listener);
}
inline PhoneAuthCredential PhoneAuthProvider::GetCredential(const char* verification_id, const char* verification_code) {
  return PhoneAuthCredential(
      hearth_credential_phone(auth_ ? auth_->handle() : nullptr, verification_id, verification_code));
}
#endif

inline void PhoneAuthProvider::Verify(const char* phone_number, size_t length, Listener* listener) {
  if (!listener) return;  // nobody to tell (Firebase asserts)
  auto* context = new std::shared_ptr<ListenerState>(listener->state_);
  hearth_auth_verify_phone_number(auth_ ? auth_->handle() : nullptr, phone_number, length, &PhoneAuthProvider::Finish,
                                  context);
}

inline void PhoneAuthProvider::Finish(void* context, int error, const char* message, hearth_result result) {
  std::unique_ptr<std::shared_ptr<ListenerState>> state(static_cast<std::shared_ptr<ListenerState>*>(context));
  std::string text = message ? message : "";
  std::string verification_id;
  if (error == kAuthErrorNone) {
    verification_id = result ? internal::TakeString(hearth_result_string(result, 4)) : std::string();
    if (verification_id.empty()) {
      error = kAuthErrorFailure;
      text = "The server gave no verification id.";
    }
  }
  ListenerState& shared = **state;
  std::lock_guard<std::recursive_mutex> lock(shared.mutex);
  // Each call looks again: a callback may destroy its listener.
  try {
    if (error != kAuthErrorNone) {
      if (Listener* listener = shared.listener) listener->OnVerificationFailedWithError(static_cast<AuthError>(error), text);
      if (Listener* listener = shared.listener) listener->OnVerificationFailed(text);
      return;
    }
    ForceResendingToken token;
    token.session_ = verification_id;
    if (Listener* listener = shared.listener) listener->OnCodeSent(verification_id, token);
    if (Listener* listener = shared.listener) listener->OnCodeAutoRetrievalTimeOut(verification_id);
  } catch (...) {
    // An exception must not unwind into the bridge's Swift frames; the listener's own handlers are the place for it.
  }
}

// MARK: Listeners' removal

inline AuthStateListener::~AuthStateListener() {
  std::vector<Auth*> auths;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auths = auths_;
  }
  for (Auth* auth : auths) auth->RemoveAuthStateListener(this);
}

inline IdTokenListener::~IdTokenListener() {
  std::vector<Auth*> auths;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auths = auths_;
  }
  for (Auth* auth : auths) auth->RemoveIdTokenListener(this);
}

}  // namespace auth

// The browser of SignInWithProvider, LinkWithProvider and ReauthenticateWithProvider: `open` is given the
// provider page's URL and must show it (the app's own browser or web view); the flow ends when the browser
// comes back to the loopback listener, or after `timeout_seconds`. nullptr puts back the system browser.
inline void SetBrowser(void (*open)(void* user_data, const char* url), void* user_data, double timeout_seconds = 300) {
  hearth_set_browser(open, user_data, timeout_seconds);
}

}  // namespace hearth

#endif  // HEARTH_AUTH_H_
