// One table of names per enum, read both ways: a value's name for reports, a name's value for
// command lines, scenario files and decision files.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace skipsound {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

template <typename E, std::size_t N>
class EnumNames {
 public:
  constexpr explicit EnumNames(std::array<EnumName<E>, N> entries) : entries_(entries) {}

  const char* name(E value) const {
    for (const EnumName<E>& entry : entries_) {
      if (entry.value == value) return entry.name;
    }
    return "?";
  }

  std::optional<E> value(std::string_view name) const {
    for (const EnumName<E>& entry : entries_) {
      if (name == entry.name) return entry.value;
    }
    return std::nullopt;
  }

  static constexpr std::size_t size() { return N; }

  // In table order.
  std::vector<E> values() const {
    std::vector<E> out;
    for (const EnumName<E>& entry : entries_) out.push_back(entry.value);
    return out;
  }

 private:
  std::array<EnumName<E>, N> entries_;
};

}  // namespace skipsound
