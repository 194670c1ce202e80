// Z3 4.8.12's string alphabet ends at U+2FFFF ((str.from_code 1114111) is ""), but Delta's
// truncated string max uses U+10FFFF. Strings are therefore encoded through an order-preserving
// renumbering of the code points a query mentions, keeping one free code wherever the original
// order has room for another character, so every Z3 string decodes to a real UTF-8 string that
// compares, matches and measures exactly as the encoded one does.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace skipsound::smt {

class CodePointMap {
 public:
  // `mentioned`: every code point of every string constant in the query.
  explicit CodePointMap(const std::set<char32_t>& mentioned);

  unsigned encode(char32_t code_point) const;  // must be a mentioned code point
  // Codes above highest() continue past the last mentioned code point, one scalar value each,
  // while they stay within U+10FFFF.
  std::optional<char32_t> decode(unsigned code) const;
  // Codes that decode without going past U+10FFFF: [lowest(), highest()] and beyond up to
  // top_code().
  unsigned lowest() const { return lowest_; }
  unsigned highest() const { return highest_; }
  unsigned top_code() const;

 private:
  struct Slot {
    unsigned code;
    char32_t code_point;
  };
  std::vector<Slot> slots_;  // sorted by code (and so by code point)
  unsigned lowest_ = 0;
  unsigned highest_ = 0;
};

// Binary values are byte strings: byte b is code b.
inline constexpr unsigned kFirstStringCode = 0;

}  // namespace skipsound::smt
