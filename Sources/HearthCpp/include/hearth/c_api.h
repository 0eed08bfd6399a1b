// The C ABI that HearthAuthBridge (Swift, `@_cdecl`) exports and the header-only C++ API wraps.
//
// Every network call takes a completion and a context, returns at once, and later calls the completion exactly
// once, on a thread of Swift's concurrency pool, with an AuthError value (0 when it worked), a message (NULL
// when it worked) and a result handle that is valid only during the call. Handles returned by a function whose
// name does not say "borrow" are owned by the caller and released with the matching `_release`. Strings the
// bridge returns are malloc'd, NUL-terminated UTF-8, freed with hearth_free; strings passed in are UTF-8 and
// may be NULL where the comment says so.
#ifndef HEARTH_C_API_H_
#define HEARTH_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hearth_app_s* hearth_app;
typedef struct hearth_user_s* hearth_user;
typedef struct hearth_credential_s* hearth_credential;
typedef struct hearth_result_s* hearth_result;
typedef struct hearth_value_s* hearth_value;

typedef void (*hearth_completion)(void* context, int error, const char* message, hearth_result result);
typedef void (*hearth_listener)(void* context);
typedef void (*hearth_browser)(void* context, const char* url);

void hearth_free(char* text);

// Apps. `server_url`, `api_key` and `project_id` NULL or empty take HEARTH_SERVER_URL, HEARTH_API_KEY and
// HEARTH_PROJECT_ID from the environment (then http://127.0.0.1:9099, "dev", "demo-hearth"). Returns NULL
// and sets *error_message (free it) when an app of that name exists with other options.
hearth_app hearth_app_create(const char* name, const char* server_url, const char* api_key, const char* project_id,
                             const char* app_id, char** error_message);
void hearth_app_release(hearth_app app);
char* hearth_app_option(hearth_app app, int option);  // 0 server URL, 1 API key, 2 project id, 3 app id

// Auth.
hearth_user hearth_auth_current_user(hearth_app app);  // NULL when signed out
int hearth_auth_sign_out(hearth_app app);              // an AuthError value
char* hearth_auth_language_code(hearth_app app);       // NULL when unset
void hearth_auth_set_language_code(hearth_app app, const char* code);  // NULL: the app's language
void hearth_auth_use_emulator(hearth_app app, const char* host, uint32_t port);
uint64_t hearth_auth_add_listener(hearth_app app, int id_token, hearth_listener listener, void* context);
void hearth_auth_remove_listener(hearth_app app, uint64_t handle);
void hearth_auth_sign_in_anonymously(hearth_app app, hearth_completion done, void* context);
void hearth_auth_sign_in_with_email(hearth_app app, const char* email, const char* password, hearth_completion done,
                                    void* context);
void hearth_auth_create_user(hearth_app app, const char* email, const char* password, hearth_completion done,
                             void* context);
void hearth_auth_sign_in_with_custom_token(hearth_app app, const char* token, hearth_completion done, void* context);
void hearth_auth_sign_in_with_credential(hearth_app app, hearth_credential credential, hearth_completion done,
                                         void* context);
void hearth_auth_sign_in_with_provider(hearth_app app, const char* provider_id, const char* const* scopes,
                                       size_t scope_count, const char* const* parameter_names,
                                       const char* const* parameter_values, size_t parameter_count,
                                       hearth_completion done, void* context);
void hearth_auth_fetch_providers(hearth_app app, const char* email, hearth_completion done, void* context);
void hearth_auth_send_password_reset(hearth_app app, const char* email, hearth_completion done, void* context);
// Sends a verification code by SMS to the `length` bytes at `phone_number` (UTF-8; NULL is an empty number); the
// result's string 4 is the verification id. Bytes that are no phone number's (a NUL, invalid UTF-8) are refused
// with kAuthErrorInvalidPhoneNumber, a NULL app with kAuthErrorFailure. Unlike the other calls, every outcome,
// refusals too, comes on a thread of Swift's concurrency pool, never during the call.
void hearth_auth_verify_phone_number(hearth_app app, const char* phone_number, size_t length, hearth_completion done,
                                     void* context);

// The browser of SignInWithProvider: NULL puts back the system browser ($BROWSER, then xdg-open or open). The
// function is handed the provider page's URL and must show it; the sign-in ends when the browser comes back
// to the loopback listener, or after `timeout_seconds`.
void hearth_set_browser(hearth_browser browser, void* context, double timeout_seconds);

// Users (a handle follows the live account: fields read now reflect the latest change).
hearth_user hearth_user_retain(hearth_user user);
void hearth_user_release(hearth_user user);
int hearth_user_same(hearth_user a, hearth_user b);
// 0 uid, 1 email, 2 display name, 3 photo URL, 4 provider id, 5 phone number, 6 tenant id
char* hearth_user_string(hearth_user user, int field);
int hearth_user_flag(hearth_user user, int flag);           // 0 anonymous, 1 e-mail verified
uint64_t hearth_user_timestamp(hearth_user user, int which);  // 0 last sign-in, 1 creation; ms since 1970
size_t hearth_user_provider_count(hearth_user user);
char* hearth_user_provider_string(hearth_user user, size_t index, int field);
void hearth_user_get_token(hearth_user user, int force_refresh, hearth_completion done, void* context);
void hearth_user_link(hearth_user user, hearth_credential credential, hearth_completion done, void* context);
void hearth_user_reauthenticate(hearth_user user, hearth_credential credential, hearth_completion done, void* context);
// what: 1 link, 2 reauthenticate; `app` is the user's app
void hearth_user_with_provider(hearth_app app, hearth_user user, int what, const char* provider_id, const char* const* scopes,
                               size_t scope_count, const char* const* parameter_names,
                               const char* const* parameter_values, size_t parameter_count, hearth_completion done,
                               void* context);
void hearth_user_unlink(hearth_user user, const char* provider_id, hearth_completion done, void* context);
// `credential` must be a phone credential (hearth_credential_phone, or the updated credential of a refused link).
void hearth_user_update_phone_number(hearth_user user, hearth_credential credential, hearth_completion done,
                                     void* context);
void hearth_user_reload(hearth_user user, hearth_completion done, void* context);
void hearth_user_delete(hearth_user user, hearth_completion done, void* context);
void hearth_user_update_password(hearth_user user, const char* password, hearth_completion done, void* context);
// display_name / photo_url NULL: unchanged; "": removed
void hearth_user_update_profile(hearth_user user, const char* display_name, const char* photo_url,
                                hearth_completion done, void* context);
void hearth_user_send_email_verification(hearth_user user, const char* new_email, hearth_completion done,
                                         void* context);  // new_email NULL: verify the current address

// Credentials.
hearth_credential hearth_credential_email(const char* email, const char* password);
// id_token, raw_nonce, access_token and secret may be NULL; twitter.com takes access_token + secret.
hearth_credential hearth_credential_oauth(const char* provider_id, const char* id_token, const char* raw_nonce,
                                          const char* access_token, const char* secret);
// The verification id of hearth_auth_verify_phone_number and the code from the SMS; NULL strings are empty (signing
// in then fails with kAuthErrorMissingVerificationId or …Code). NULL when `app` is NULL.
hearth_credential hearth_credential_phone(hearth_app app, const char* verification_id, const char* verification_code);
hearth_credential hearth_credential_retain(hearth_credential credential);
void hearth_credential_release(hearth_credential credential);
char* hearth_credential_provider(hearth_credential credential);

// Results, borrowed for the duration of the completion.
hearth_user hearth_result_user(hearth_result result);  // owned; NULL when none
// 0 additional info's provider id, 1 user name, 2 ID token (GetToken), 3 the e-mail of the error,
// 4 verification id (hearth_auth_verify_phone_number)
char* hearth_result_string(hearth_result result, int field);
int hearth_result_is_new_user(hearth_result result);
hearth_credential hearth_result_credential(hearth_result result);          // owned; NULL when none
hearth_credential hearth_result_updated_credential(hearth_result result);  // owned; NULL when none
size_t hearth_result_list_count(hearth_result result);                     // FetchProvidersForEmail
char* hearth_result_list_item(hearth_result result, size_t index);
hearth_value hearth_result_borrow_profile(hearth_result result);  // NULL when none

// Profile values (JSON), borrowed from their result.
// Types: 0 null, 1 bool, 2 integer, 3 double, 4 string, 5 array, 6 object.
int hearth_value_type(hearth_value value);
int hearth_value_bool(hearth_value value);
int64_t hearth_value_int(hearth_value value);
double hearth_value_double(hearth_value value);
char* hearth_value_string(hearth_value value);
size_t hearth_value_count(hearth_value value);
char* hearth_value_key(hearth_value value, size_t index);              // objects: keys in sorted order
hearth_value hearth_value_borrow_child(hearth_value value, size_t index);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HEARTH_C_API_H_
