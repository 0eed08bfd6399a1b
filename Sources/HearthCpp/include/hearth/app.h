// hearth::App and hearth::AppOptions: Firebase's firebase::App, configured for a Hearth server.
//
// Firebase's desktop SDK reads google-services.json; a Hearth app is given its server instead, in one line:
//
//   hearth::Configure("http://127.0.0.1:9099", "my-api-key", "my-project");
//   firebase::App* app = firebase::App::Create(firebase::AppOptions());
//
// Options left empty take Configure's values, then the environment (HEARTH_SERVER_URL, HEARTH_API_KEY,
// HEARTH_PROJECT_ID), then development mode's defaults (http://127.0.0.1:9099, "dev", "demo-hearth").
#ifndef HEARTH_APP_H_
#define HEARTH_APP_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "hearth/c_api.h"
#include "hearth/future.h"

#if defined(__ANDROID__)
#include <jni.h>
#endif

namespace hearth {

namespace auth {
class Auth;
}

enum InitResult { kInitResultSuccess = 0, kInitResultFailedMissingDependency };

inline constexpr const char kDefaultAppNameValue[] = "__FIRAPP_DEFAULT";
// Firebase's name for the default app.
inline const char* const kDefaultAppName = kDefaultAppNameValue;

namespace internal {
struct Defaults {
  std::mutex mutex;
  std::string server_url;
  std::string api_key;
  std::string project_id;
};
inline Defaults& GetDefaults() {
  static Defaults defaults;
  return defaults;
}
}  // namespace internal

// The one configuration line: the server, API key and project of every app whose options leave them empty.
inline void Configure(const char* server_url, const char* api_key, const char* project_id) {
  internal::Defaults& defaults = internal::GetDefaults();
  std::lock_guard<std::mutex> lock(defaults.mutex);
  defaults.server_url = server_url ? server_url : "";
  defaults.api_key = api_key ? api_key : "";
  defaults.project_id = project_id ? project_id : "";
}

class AppOptions {
 public:
  AppOptions() = default;

  void set_api_key(const char* value) { api_key_ = value ? value : ""; }
  const char* api_key() const { return api_key_.c_str(); }
  void set_app_id(const char* value) { app_id_ = value ? value : ""; }
  const char* app_id() const { return app_id_.c_str(); }
  void set_project_id(const char* value) { project_id_ = value ? value : ""; }
  const char* project_id() const { return project_id_.c_str(); }
  void set_client_id(const char* value) { client_id_ = value ? value : ""; }
  const char* client_id() const { return client_id_.c_str(); }
  void set_database_url(const char* value) { database_url_ = value ? value : ""; }
  const char* database_url() const { return database_url_.c_str(); }
  void set_storage_bucket(const char* value) { storage_bucket_ = value ? value : ""; }
  const char* storage_bucket() const { return storage_bucket_.c_str(); }
  void set_messaging_sender_id(const char* value) { messaging_sender_id_ = value ? value : ""; }
  const char* messaging_sender_id() const { return messaging_sender_id_.c_str(); }
  // Hearth's own: the server's base URL (Firebase's SDKs know Google's).
  void set_server_url(const char* value) { server_url_ = value ? value : ""; }
  const char* server_url() const { return server_url_.c_str(); }

 private:
  std::string api_key_, app_id_, project_id_, client_id_, database_url_, storage_bucket_, messaging_sender_id_;
  std::string server_url_;
};

class App {
 public:
  static App* Create() { return Create(AppOptions(), kDefaultAppNameValue); }
  static App* Create(const AppOptions& options) { return Create(options, kDefaultAppNameValue); }
  // The app of that name, made once; nullptr when one of that name exists with another server, key or project.
  static App* Create(const AppOptions& options, const char* name);
#if defined(__ANDROID__)
  // Firebase's Android form, as the seeds' `#if defined(__ANDROID__)` branch calls it. Hearth needs no Java
  // VM: the environment and activity are not used. (Not compiled on this Linux machine.)
  static App* Create(const AppOptions& options, JNIEnv*, jobject) { return Create(options, kDefaultAppNameValue); }
  static App* Create(const AppOptions& options, const char* name, JNIEnv*, jobject) { return Create(options, name); }
#endif
  static App* GetInstance() { return GetInstance(kDefaultAppNameValue); }
  static App* GetInstance(const char* name) {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    auto found = Registry().find(name ? name : "");
    return found == Registry().end() ? nullptr : found->second;
  }

  // Deletes the app's Auth too; the app must not be used afterwards.
  ~App() {
    {
      std::lock_guard<std::mutex> lock(RegistryMutex());
      auto found = Registry().find(name_);
      if (found != Registry().end() && found->second == this) Registry().erase(found);
    }
    auth_owner_.reset();
    hearth_app_release(handle_);
  }
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  const char* name() const { return name_.c_str(); }
  const AppOptions& options() const { return options_; }

  // The bridge's app, for the Auth of this app.
  hearth_app handle() const { return handle_; }

 private:
  friend class auth::Auth;
  App(hearth_app handle, std::string name, AppOptions options)
      : handle_(handle), name_(std::move(name)), options_(std::move(options)) {}

  static std::map<std::string, App*>& Registry() {
    static std::map<std::string, App*> registry;
    return registry;
  }
  static std::mutex& RegistryMutex() {
    static std::mutex mutex;
    return mutex;
  }

  hearth_app handle_;
  std::string name_;
  AppOptions options_;
  auth::Auth* auth_ = nullptr;
  std::shared_ptr<void> auth_owner_;  // deletes auth_
};

inline App* App::Create(const AppOptions& options, const char* name) {
  std::string app_name = name && *name ? name : kDefaultAppNameValue;
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto found = Registry().find(app_name);
  if (found != Registry().end()) return found->second;

  AppOptions resolved = options;
  {
    internal::Defaults& defaults = internal::GetDefaults();
    std::lock_guard<std::mutex> defaults_lock(defaults.mutex);
    if (!*resolved.server_url()) resolved.set_server_url(defaults.server_url.c_str());
    if (!*resolved.api_key()) resolved.set_api_key(defaults.api_key.c_str());
    if (!*resolved.project_id()) resolved.set_project_id(defaults.project_id.c_str());
  }
  char* error = nullptr;
  hearth_app handle = hearth_app_create(app_name.c_str(), resolved.server_url(), resolved.api_key(),
                                        resolved.project_id(), resolved.app_id(), &error);
  internal::TakeString(error);
  if (!handle) return nullptr;
  // What the bridge settled on (the environment's or the defaults' values for empty ones).
  resolved.set_server_url(internal::TakeString(hearth_app_option(handle, 0)).c_str());
  resolved.set_api_key(internal::TakeString(hearth_app_option(handle, 1)).c_str());
  resolved.set_project_id(internal::TakeString(hearth_app_option(handle, 2)).c_str());
  App* app = new App(handle, app_name, resolved);
  Registry()[app_name] = app;
  return app;
}

}  // namespace hearth

#endif  // HEARTH_APP_H_
