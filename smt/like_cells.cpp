#include "smt/like_cells.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_set>

#include "model/values/utf8.h"

namespace skipsound::smt {
namespace {

// Product states walked per call, over every cell: the gate's patterns need a few hundred.
constexpr size_t kMaxStates = 50'000;
constexpr char32_t kCodePointLimit = 0x110000;
constexpr char32_t kSurrogatesFirst = 0xD800;
constexpr char32_t kSurrogatesEnd = 0xE000;

using CodePoints = std::vector<char32_t>;

// The least valid code point in [from, to), skipping surrogates (no UTF-8 string holds one).
std::optional<char32_t> least_valid(char32_t from, char32_t to) {
  if (from >= kSurrogatesFirst && from < kSurrogatesEnd) from = kSurrogatesEnd;
  if (from >= to) return std::nullopt;
  return from;
}

// Every mentioned code point, and the least one of each gap between them.
CodePoints alphabet(const std::vector<CodePoints>& points, const std::vector<LikePattern>& patterns) {
  std::set<char32_t> mentioned;
  for (const CodePoints& p : points) mentioned.insert(p.begin(), p.end());
  for (const LikePattern& pattern : patterns)
    for (const LikeToken& t : pattern)
      if (t.kind == LikeToken::Kind::Literal) mentioned.insert(t.literal);
  CodePoints out;
  char32_t next = 0;  // the least code point not yet represented
  for (const char32_t c : mentioned) {
    if (const auto gap = least_valid(next, c)) out.push_back(*gap);
    out.push_back(c);
    next = c + 1;
  }
  if (const auto gap = least_valid(next, kCodePointLimit)) out.push_back(*gap);
  return out;
}

// Tracks a string against an end point e: "equal to e's first i code points" (0 <= i <= |e|),
// already above e, or (kDead) already on the wrong side.
constexpr int kDead = -1;

// The string must end above `low`.
struct LowTracker {
  const CodePoints& low;
  int above() const { return static_cast<int>(low.size()) + 1; }
  int step(int state, char32_t c) const {
    if (state == kDead || state == above()) return state;
    // A string that extends all of `low` is above it.
    if (state == static_cast<int>(low.size()) || c > low[state]) return above();
    return c == low[state] ? state + 1 : kDead;
  }
  bool accepts(int state) const { return state == above(); }
};

// The string must end below `high` (absent: no bound).
struct HighTracker {
  const CodePoints* high;
  int below() const { return high ? static_cast<int>(high->size()) + 1 : 0; }
  int step(int state, char32_t c) const {
    if (!high || state == kDead || state == below()) return state;
    if (state == static_cast<int>(high->size()) || c > (*high)[state]) return kDead;
    return c == (*high)[state] ? state + 1 : below();
  }
  // A proper prefix of `high` is below it; all of it is not.
  bool accepts(int state) const { return !high || (state != kDead && state != static_cast<int>(high->size())); }
};

// The set of pattern positions reached, one byte per position (0..|pattern|).
using Positions = std::string;

// '%' may match nothing: a position before it reaches the position after it.
void close_over_runs(const LikePattern& pattern, Positions& at) {
  for (size_t i = 0; i < pattern.size(); ++i)
    if (at[i] && pattern[i].kind == LikeToken::Kind::AnyRun) at[i + 1] = 1;
}

Positions start_positions(const LikePattern& pattern) {
  Positions at(pattern.size() + 1, 0);
  at[0] = 1;
  close_over_runs(pattern, at);
  return at;
}

Positions step_positions(const LikePattern& pattern, const Positions& at, char32_t c) {
  Positions next(pattern.size() + 1, 0);
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (!at[i]) continue;
    const LikeToken& t = pattern[i];
    if (t.kind == LikeToken::Kind::AnyRun) next[i] = 1;
    else if (t.kind == LikeToken::Kind::AnyOne || t.literal == c) next[i + 1] = 1;
  }
  close_over_runs(pattern, next);
  return next;
}

struct State {
  int low = 0;
  int high = 0;
  std::vector<Positions> patterns;
  CodePoints text;  // a shortest string reaching this state

  std::string key() const {
    std::string k = std::to_string(low) + ',' + std::to_string(high);
    for (const Positions& p : patterns) k += '|' + p;
    return k;
  }
};

class CellWalk {
 public:
  CellWalk(const CodePoints& alphabet, const std::vector<LikePattern>& patterns, size_t& states)
      : alphabet_(alphabet), patterns_(patterns), states_(states) {}

  // Adds to `out` one string per set of matching patterns met strictly between low and high.
  bool walk(const CodePoints& low, const CodePoints* high, std::vector<std::string>& out) {
    const LowTracker lows{low};
    const HighTracker highs{high};
    std::set<std::string> matched_sets;
    std::unordered_set<std::string> seen;
    std::deque<State> queue;
    State start;
    for (const LikePattern& p : patterns_) start.patterns.push_back(start_positions(p));
    seen.insert(start.key());
    queue.push_back(std::move(start));
    const size_t all_sets = size_t{1} << std::min<size_t>(patterns_.size(), 20);
    while (!queue.empty() && matched_sets.size() < all_sets) {
      State s = std::move(queue.front());
      queue.pop_front();
      if (lows.accepts(s.low) && highs.accepts(s.high) && matched_sets.insert(matches(s)).second)
        out.push_back(encode_utf8(s.text));
      for (const char32_t c : alphabet_) {
        State next{lows.step(s.low, c), highs.step(s.high, c), {}, {}};
        if (next.low == kDead || next.high == kDead) continue;
        for (size_t i = 0; i < patterns_.size(); ++i)
          next.patterns.push_back(step_positions(patterns_[i], s.patterns[i], c));
        if (!seen.insert(next.key()).second) continue;
        if (++states_ > kMaxStates) return false;
        next.text = s.text;
        next.text.push_back(c);
        queue.push_back(std::move(next));
      }
    }
    return true;
  }

 private:
  // Which patterns the state's strings match, as one character per pattern.
  std::string matches(const State& s) const {
    std::string m;
    for (size_t i = 0; i < patterns_.size(); ++i) m += s.patterns[i][patterns_[i].size()] ? '1' : '0';
    return m;
  }

  const CodePoints& alphabet_;
  const std::vector<LikePattern>& patterns_;
  size_t& states_;
};

}  // namespace

std::optional<std::vector<std::string>> like_cell_witnesses(std::vector<std::string> points,
                                                            const std::vector<LikePattern>& patterns) {
  points.push_back("");
  // UTF-8 byte order is code-point order.
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<CodePoints> decoded;
  for (const std::string& p : points) decoded.push_back(decode_utf8(p));
  const CodePoints letters = alphabet(decoded, patterns);
  size_t states = 0;
  CellWalk walk(letters, patterns, states);
  std::vector<std::string> out;
  for (size_t i = 0; i < decoded.size(); ++i) {
    const CodePoints* high = i + 1 < decoded.size() ? &decoded[i + 1] : nullptr;
    if (!walk.walk(decoded[i], high, out)) return std::nullopt;
  }
  return out;
}

}  // namespace skipsound::smt
