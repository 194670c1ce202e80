// smt/like_cells.h against brute force: every (cell, set of matching patterns) that some short
// string over a small alphabet reaches must be among the walk's answers, each answer must lie
// strictly inside a cell, and no combination may be answered twice. The model's own LIKE
// (model/sql/like.h) is the judge of a match.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/sql/like.h"
#include "model/values/utf8.h"
#include "smt/like_cells.h"

namespace skipsound::smt {
namespace {

// Cell i is (points[i], points[i+1]); the last one is above the greatest point. nullopt for a
// point itself.
std::optional<size_t> cell_of(const std::string& s, const std::vector<std::string>& sorted_points) {
  if (std::binary_search(sorted_points.begin(), sorted_points.end(), s)) return std::nullopt;
  return static_cast<size_t>(std::upper_bound(sorted_points.begin(), sorted_points.end(), s) -
                             sorted_points.begin()) - 1;
}

std::string match_set(const std::string& s, const std::vector<std::string>& patterns) {
  std::string m;
  for (const std::string& p : patterns) m += like_match(s, p) == LikeMatch::Match ? '1' : '0';
  return m;
}

std::vector<std::string> sorted_points(std::vector<std::string> points) {
  points.push_back("");
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Every string of up to `length` code points over `letters`.
std::vector<std::string> all_strings(const std::vector<std::string>& letters, size_t length) {
  std::vector<std::string> out{""};
  std::vector<std::string> last{""};
  for (size_t n = 0; n < length; ++n) {
    std::vector<std::string> next;
    for (const std::string& s : last)
      for (const std::string& l : letters) next.push_back(s + l);
    out.insert(out.end(), next.begin(), next.end());
    last = std::move(next);
  }
  return out;
}

// 0..longest letters, the length drawn uniformly (not by the generation size).
rc::Gen<std::string> short_text(const std::vector<std::string>& letters, size_t longest) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= longest; ++n) lengths.push_back(n);
  return rc::gen::map(rc::gen::mapcat(rc::gen::elementOf(lengths),
                                      [letters](size_t n) {
                                        return rc::gen::container<std::vector<std::string>>(
                                            n, rc::gen::elementOf(letters));
                                      }),
                      [](const std::vector<std::string>& parts) {
                        std::string s;
                        for (const std::string& p : parts) s += p;
                        return s;
                      });
}

RC_GTEST_PROP(LikeCells, MeetEveryCombinationShortStringsMeet, ()) {
  // 'c' and "é" appear in no pattern and '0' sorts below every pattern letter.
  const std::vector<std::string> point_letters{"a", "b", "é"};
  const std::vector<std::string> pattern_letters{"a", "b", "%", "_"};
  const auto points = *rc::gen::container<std::vector<std::string>>(
      *rc::gen::elementOf(std::vector<size_t>{0, 1, 2, 3}), short_text(point_letters, 3));
  const auto patterns = *rc::gen::container<std::vector<std::string>>(
      *rc::gen::elementOf(std::vector<size_t>{1, 2, 3}), short_text(pattern_letters, 5));
  const auto has = [&](char c) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return p.find(c) != p.npos; });
  };
  RC_CLASSIFY(has('_'), "'_'");
  RC_CLASSIFY(std::any_of(patterns.begin(), patterns.end(),
                          [](const std::string& p) { return p.size() > 1 && p.find('%', 1) < p.size() - 1; }),
              "inner '%'");
  RC_TAG(std::to_string(patterns.size()) + " pattern(s)");

  std::vector<LikePattern> tokens;
  for (const std::string& p : patterns) tokens.push_back(*like_tokens(p));
  const std::optional<std::vector<std::string>> answers = like_cell_witnesses(points, tokens);
  RC_ASSERT(answers.has_value());
  const std::vector<std::string> ends = sorted_points(points);

  std::set<std::pair<size_t, std::string>> answered;
  for (const std::string& s : *answers) {
    RC_ASSERT(is_valid_utf8(s));
    const std::optional<size_t> cell = cell_of(s, ends);
    RC_ASSERT(cell.has_value());  // strictly inside a cell, never an end point
    RC_ASSERT(answered.insert({*cell, match_set(s, patterns)}).second);
  }
  for (const std::string& s : all_strings({"0", "a", "b", "c", "é"}, 4)) {
    const std::optional<size_t> cell = cell_of(s, ends);
    if (!cell) continue;
    RC_ASSERT(answered.count({*cell, match_set(s, patterns)}) == 1u);
  }
}

TEST(LikeCells, AShortestStringPerCombination) {
  const std::vector<LikePattern> patterns{*like_tokens("%ab%"), *like_tokens("b_")};
  const auto answers = like_cell_witnesses({"b"}, patterns);
  ASSERT_TRUE(answers.has_value());
  // Below "b", the shortest string that contains "ab" is "ab" itself.
  EXPECT_NE(std::find(answers->begin(), answers->end(), "ab"), answers->end());
  const auto has_match_of_both = std::any_of(answers->begin(), answers->end(), [&](const std::string& s) {
    return like_match(s, "%ab%") == LikeMatch::Match && like_match(s, "b_") == LikeMatch::Match;
  });
  EXPECT_FALSE(has_match_of_both);  // "b_" has two code points, "%ab%" needs "ab" after a 'b': none
}

TEST(LikeCells, GivesUpPastItsBudget) {
  // "the 21st code point from the end is an 'a'": its automaton must remember the last 21 code
  // points, 2^21 subsets.
  EXPECT_FALSE(like_cell_witnesses({}, {*like_tokens("%a" + std::string(20, '_'))}).has_value());
  EXPECT_TRUE(like_cell_witnesses({}, {*like_tokens("%a" + std::string(4, '_'))}).has_value());
}

}  // namespace
}  // namespace skipsound::smt
