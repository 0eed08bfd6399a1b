// hearth::Future<T>, the result of an asynchronous call: Firebase's firebase::Future with the same members.
#ifndef HEARTH_FUTURE_H_
#define HEARTH_FUTURE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "hearth/c_api.h"

namespace hearth {

enum FutureStatus { kFutureStatusComplete, kFutureStatusPending, kFutureStatusInvalid };

namespace internal {

// What every copy of one future shares. Completed once, by the thread that finished the call.
class FutureState {
 public:
  FutureStatus status() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }
  int error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }
  // Stable once complete: the message is never written again.
  const char* message() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_ == kFutureStatusComplete ? message_.c_str() : "";
  }
  const void* result() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_ == kFutureStatusComplete ? result_.get() : nullptr;
  }

  // Waits up to `milliseconds` (negative: without limit); true when complete.
  bool Wait(int milliseconds) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto complete = [this] { return status_ == kFutureStatusComplete; };
    if (milliseconds < 0) {
      done_.wait(lock, complete);
      return true;
    }
    return done_.wait_for(lock, std::chrono::milliseconds(milliseconds), complete);
  }

  // Sets the callback (replacing an earlier one); runs it now, on this thread, if already complete.
  void OnCompletion(std::function<void()> callback) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (status_ != kFutureStatusComplete) {
      callback_ = std::move(callback);
      return;
    }
    lock.unlock();
    if (callback) callback();
  }

  void Complete(int error, const char* message, std::shared_ptr<void> result) {
    std::function<void()> callback;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (status_ == kFutureStatusComplete) return;
      error_ = error;
      message_ = message ? message : "";
      result_ = std::move(result);
      status_ = kFutureStatusComplete;
      callback.swap(callback_);
    }
    done_.notify_all();
    if (callback) callback();
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  FutureStatus status_ = kFutureStatusPending;
  int error_ = 0;
  std::string message_;
  std::shared_ptr<void> result_;
  std::function<void()> callback_;
};

}  // namespace internal

// The untyped part of a future. Copies share one call; a default-constructed future is invalid.
class FutureBase {
 public:
  typedef void (*CompletionCallback)(const FutureBase& result_data, void* user_data);
  static const int kWaitTimeoutInfinite = -1;

  FutureBase() = default;
  explicit FutureBase(std::shared_ptr<internal::FutureState> state) : state_(std::move(state)) {}

  FutureStatus status() const { return state_ ? state_->status() : kFutureStatusInvalid; }
  int error() const { return state_ ? state_->error() : 0; }
  const char* error_message() const { return state_ ? state_->message() : ""; }
  const void* result_void() const { return state_ ? state_->result() : nullptr; }
  bool Wait(int timeout_milliseconds) const { return state_ ? state_->Wait(timeout_milliseconds) : false; }
  void Release() { state_.reset(); }

  void OnCompletion(CompletionCallback callback, void* user_data) const {
    OnCompletion([callback, user_data](const FutureBase& future) { callback(future, user_data); });
  }
  void OnCompletion(std::function<void(const FutureBase&)> callback) const {
    if (!state_) return;
    FutureBase self(*this);
    state_->OnCompletion([self, callback] { callback(self); });
  }

  bool operator==(const FutureBase& other) const { return state_ == other.state_; }
  bool operator!=(const FutureBase& other) const { return state_ != other.state_; }

 protected:
  std::shared_ptr<internal::FutureState> state_;
};

template <typename T>
class Future : public FutureBase {
 public:
  typedef void (*TypedCompletionCallback)(const Future<T>& result_data, void* user_data);

  Future() = default;
  explicit Future(std::shared_ptr<internal::FutureState> state) : FutureBase(std::move(state)) {}
  // Any future is also a Future<void>, as Firebase's Reauthenticate (Future<void>) callers expect.
  template <typename U, typename V = T,
            typename = typename std::enable_if<std::is_void<V>::value && !std::is_void<U>::value>::type>
  Future(const Future<U>& other) : FutureBase(other) {}  // NOLINT: implicit on purpose

  // The value, once complete (also after an error, for what the error carries); nullptr before.
  const T* result() const { return static_cast<const T*>(result_void()); }

  void OnCompletion(TypedCompletionCallback callback, void* user_data) const {
    OnCompletion([callback, user_data](const Future<T>& future) { callback(future, user_data); });
  }
  void OnCompletion(std::function<void(const Future<T>&)> callback) const {
    if (!state_) return;
    Future<T> self(state_);
    state_->OnCompletion([self, callback] { callback(self); });
  }
};

namespace internal {

// The bridge owns the result only during the completion: `convert` turns it into T there.
template <typename T>
struct Call {
  std::shared_ptr<FutureState> state;
  std::function<T(hearth_result, int)> convert;
};

template <typename T>
void FinishCall(void* context, int error, const char* message, hearth_result result) {
  std::unique_ptr<Call<T>> call(static_cast<Call<T>*>(context));
  std::shared_ptr<void> value;
  try {
    if (result && call->convert) value = std::make_shared<T>(call->convert(result, error));
    if (!value) value = std::make_shared<T>();
  } catch (...) {
    call->state->Complete(error ? error : 1, "The result could not be read.", std::make_shared<T>());
    return;
  }
  call->state->Complete(error, message, std::move(value));
}

template <>
inline void FinishCall<void>(void* context, int error, const char* message, hearth_result) {
  std::unique_ptr<Call<void>> call(static_cast<Call<void>*>(context));
  call->state->Complete(error, message, nullptr);
}

// Starts a bridge call: `start(completion, context)` must hand both to one hearth_… function.
template <typename T, typename Start>
Future<T> StartCall(std::function<T(hearth_result, int)> convert, Start start) {
  auto state = std::make_shared<FutureState>();
  start(&FinishCall<T>, new Call<T>{state, std::move(convert)});
  return Future<T>(state);
}

// A future that is already complete with `error`.
template <typename T>
Future<T> FailedFuture(int error, const char* message) {
  auto state = std::make_shared<FutureState>();
  std::shared_ptr<void> value;
  if constexpr (!std::is_void<T>::value) value = std::make_shared<T>();
  state->Complete(error, message, value);
  return Future<T>(state);
}

// A bridge string, freed here.
inline std::string TakeString(char* text) {
  if (!text) return std::string();
  std::string copy(text);
  hearth_free(text);
  return copy;
}

}  // namespace internal
}  // namespace hearth

#endif  // HEARTH_FUTURE_H_
