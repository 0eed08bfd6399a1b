// hearth::Variant: Firebase's firebase::Variant for the values of AdditionalUserInfo::profile (JSON).
#ifndef HEARTH_VARIANT_H_
#define HEARTH_VARIANT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hearth {

class Variant {
 public:
  // Firebase's order (the blob types are not used by Auth and not offered).
  enum Type {
    kTypeNull,
    kTypeInt64,
    kTypeDouble,
    kTypeBool,
    kTypeStaticString,
    kTypeMutableString,
    kTypeVector,
    kTypeMap,
  };

  Variant() = default;
  Variant(int64_t value) : type_(kTypeInt64), int_(value) {}  // NOLINT: implicit, like Firebase's
  Variant(int value) : type_(kTypeInt64), int_(value) {}      // NOLINT
  Variant(double value) : type_(kTypeDouble), double_(value) {}  // NOLINT
  Variant(bool value) : type_(kTypeBool), bool_(value) {}        // NOLINT
  Variant(const char* value) : type_(kTypeMutableString), string_(value ? value : "") {}  // NOLINT
  Variant(std::string value) : type_(kTypeMutableString), string_(std::move(value)) {}   // NOLINT
  Variant(std::vector<Variant> value) : type_(kTypeVector), vector_(std::move(value)) {}  // NOLINT
  Variant(const std::map<Variant, Variant>& value)  // NOLINT
      : type_(kTypeMap), map_(new std::map<Variant, Variant>(value)) {}

  Variant(const Variant& other) { *this = other; }
  Variant(Variant&& other) noexcept = default;
  Variant& operator=(Variant&& other) noexcept = default;
  Variant& operator=(const Variant& other) {
    if (this == &other) return *this;
    type_ = other.type_;
    int_ = other.int_;
    double_ = other.double_;
    bool_ = other.bool_;
    string_ = other.string_;
    vector_ = other.vector_;
    map_.reset(other.map_ ? new std::map<Variant, Variant>(*other.map_) : nullptr);
    return *this;
  }

  static Variant Null() { return Variant(); }
  static Variant EmptyVector() { return Variant(std::vector<Variant>()); }
  static Variant EmptyMap() { return Variant(std::map<Variant, Variant>()); }

  Type type() const { return type_; }
  bool is_null() const { return type_ == kTypeNull; }
  bool is_int64() const { return type_ == kTypeInt64; }
  bool is_double() const { return type_ == kTypeDouble; }
  bool is_bool() const { return type_ == kTypeBool; }
  bool is_string() const { return type_ == kTypeStaticString || type_ == kTypeMutableString; }
  bool is_vector() const { return type_ == kTypeVector; }
  bool is_map() const { return type_ == kTypeMap; }
  bool is_numeric() const { return is_int64() || is_double(); }
  bool is_container_type() const { return is_vector() || is_map(); }
  bool is_fundamental_type() const { return !is_container_type(); }

  int64_t int64_value() const { return int_; }
  double double_value() const { return double_; }
  bool bool_value() const { return bool_; }
  const char* string_value() const { return string_.c_str(); }
  std::string& mutable_string() { return string_; }
  const std::vector<Variant>& vector() const { return vector_; }
  std::vector<Variant>& vector() { return vector_; }
  const std::map<Variant, Variant>& map() const {
    static const std::map<Variant, Variant> empty;
    return map_ ? *map_ : empty;
  }
  std::map<Variant, Variant>& map() {
    if (!map_) map_.reset(new std::map<Variant, Variant>());
    return *map_;
  }

  bool operator==(const Variant& other) const { return !(*this < other) && !(other < *this); }
  bool operator!=(const Variant& other) const { return !(*this == other); }
  bool operator<(const Variant& other) const {
    Type left = type_ == kTypeStaticString ? kTypeMutableString : type_;
    Type right = other.type_ == kTypeStaticString ? kTypeMutableString : other.type_;
    if (left != right) return left < right;
    switch (left) {
      case kTypeNull: return false;
      case kTypeInt64: return int_ < other.int_;
      case kTypeDouble: return double_ < other.double_;
      case kTypeBool: return bool_ < other.bool_;
      case kTypeVector: return vector_ < other.vector_;
      case kTypeMap: return map() < other.map();
      default: return string_ < other.string_;
    }
  }

 private:
  Type type_ = kTypeNull;
  int64_t int_ = 0;
  double double_ = 0;
  bool bool_ = false;
  std::string string_;
  std::vector<Variant> vector_;
  std::unique_ptr<std::map<Variant, Variant>> map_;
};

}  // namespace hearth

#endif  // HEARTH_VARIANT_H_
