#include "smt/code_points.h"

#include <algorithm>

namespace skipsound::smt {

namespace {

constexpr char32_t kMaxCodePoint = 0x10FFFF;

bool is_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

// The smallest Unicode scalar value above c, or nullopt past U+10FFFF.
std::optional<char32_t> next_scalar(char32_t c) {
  char32_t next = c + 1;
  if (is_surrogate(next)) next = 0xE000;
  if (next > kMaxCodePoint) return std::nullopt;
  return next;
}

}  // namespace

CodePointMap::CodePointMap(const std::set<char32_t>& mentioned) {
  unsigned code = 0;
  // A free slot below the first mentioned code point when a smaller one exists (U+0000).
  if (mentioned.empty() || *mentioned.begin() > 0) slots_.push_back({code++, 0});
  for (const char32_t c : mentioned) {
    if (slots_.empty() || slots_.back().code_point != c) slots_.push_back({code++, c});
    const auto next = next_scalar(c);
    const auto following = mentioned.upper_bound(c);
    // Keep one code for "some character strictly between c and the next mentioned one".
    if (next && (following == mentioned.end() || *next < *following))
      slots_.push_back({code++, *next});
  }
  lowest_ = slots_.front().code;
  highest_ = slots_.back().code;
}

unsigned CodePointMap::encode(char32_t code_point) const {
  const auto it = std::find_if(slots_.begin(), slots_.end(),
                               [&](const Slot& s) { return s.code_point == code_point; });
  return it == slots_.end() ? lowest_ : it->code;
}

std::optional<char32_t> CodePointMap::decode(unsigned code) const {
  if (code < lowest_) return std::nullopt;
  if (code <= highest_) return slots_[code - lowest_].code_point;
  std::optional<char32_t> c = slots_.back().code_point;
  for (unsigned k = highest_; k < code && c; ++k) c = next_scalar(*c);
  return c;
}

unsigned CodePointMap::top_code() const {
  const char32_t last = slots_.back().code_point;
  const char32_t above = kMaxCodePoint - last - (last < 0xD800 ? 0x800 : 0);
  constexpr unsigned kZ3MaxCode = 0x2FFFF;  // Z3 4.8.12's alphabet ends here
  return std::min<unsigned>(highest_ + above, kZ3MaxCode);
}

}  // namespace skipsound::smt
