#include "model/stats/string_truncation.h"

#include <map>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"
#include "model/values/utf8.h"

namespace skipsound {
namespace {

const std::string kMaxCodePoint = "\xF4\x8F\xBF\xBF";  // U+10FFFF
const std::string kDel = "\x7F";                       // U+007F
const std::string kGrin = "\xF0\x9F\x98\x80";          // U+1F600, two UTF-16 units
const std::string kEAcute = "\xC3\xA9";                // U+00E9

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(StringTruncation, ShortStringsAreStoredAsIs) {
  EXPECT_EQ(truncate_string_min("abc", 32), "abc");
  EXPECT_EQ(truncate_string_max("abc", 32), "abc");
  const std::string exactly_n = repeat("z", 32);
  EXPECT_EQ(truncate_string_min(exactly_n, 32), exactly_n);
  EXPECT_EQ(truncate_string_max(exactly_n, 32), exactly_n);
}

TEST(StringTruncation, LongMinIsAPrefixOfNCodePoints) {
  EXPECT_EQ(truncate_string_min(repeat("a", 40), 32), repeat("a", 32));
  EXPECT_EQ(truncate_string_min(repeat(kEAcute, 40), 32), repeat(kEAcute, 32));
  // Code points, not UTF-16 units: 32 four-byte characters survive.
  EXPECT_EQ(truncate_string_min(repeat(kGrin, 40), 32), repeat(kGrin, 32));
}

TEST(StringTruncation, AFooterMinIsCutAtNUtf16UnitsKeepingSurrogatePairsWhole) {
  const auto by_units = [](const std::string& s, int n) { return truncate_string_min(s, n, StringMinCut::Utf16Units); };
  EXPECT_EQ(by_units(repeat("a", 40), 32), repeat("a", 32));
  // A pair at units N-2..N-1 fits; one at N-1..N would be split, so the cut keeps N - 1 units.
  EXPECT_EQ(by_units(repeat("a", 30) + kGrin + "a", 32), repeat("a", 30) + kGrin);
  EXPECT_EQ(by_units(repeat("a", 31) + kGrin + "a", 32), repeat("a", 31));
  EXPECT_EQ(by_units(repeat("a", 32) + kGrin, 32), repeat("a", 32));
  EXPECT_EQ(by_units(repeat(kGrin, 40), 32), repeat(kGrin, 16));
  // At most N units: stored as is, whatever its code points.
  EXPECT_EQ(by_units(repeat(kGrin, 16), 32), repeat(kGrin, 16));
  EXPECT_EQ(by_units(kGrin, 1), "");
  EXPECT_EQ(by_units("abc", 0), "");
}

TEST(StringTruncation, LongMaxGetsAsciiTieBreakerWhenNextCharIsSmall) {
  EXPECT_EQ(truncate_string_max(repeat("a", 32) + "b", 32), repeat("a", 32) + kDel);
  EXPECT_EQ(truncate_string_max(repeat("a", 32) + "~zzz", 32), repeat("a", 32) + kDel);
}

TEST(StringTruncation, LongMaxGetsMaxCodePointWhenNextCharIsLarge) {
  EXPECT_EQ(truncate_string_max(repeat("a", 32) + kEAcute, 32), repeat("a", 32) + kMaxCodePoint);
  // U+007F itself is not below U+007F.
  EXPECT_EQ(truncate_string_max(repeat("a", 32) + kDel + "a", 32), repeat("a", 32) + kMaxCodePoint);
}

TEST(StringTruncation, LongMaxCountsUtf16UnitsAndKeepsSurrogatePairsWhole) {
  // 40 four-byte chars = 80 units; N = 32 units = 16 chars; the next unit is a high surrogate.
  EXPECT_EQ(truncate_string_max(repeat(kGrin, 40), 32), repeat(kGrin, 16) + kMaxCodePoint);
  // 31 'a' then a pair straddling unit 32: the prefix takes 33 units.
  EXPECT_EQ(truncate_string_max(repeat("a", 31) + kGrin + "b", 32),
            repeat("a", 31) + kGrin + kDel);
}

TEST(StringTruncation, MaxCodePointInTheTailIsSkipped) {
  const std::string head = repeat("a", 32);
  EXPECT_EQ(truncate_string_max(head + kMaxCodePoint + "b", 32), head + kMaxCodePoint + kDel);
  EXPECT_EQ(truncate_string_max(head + kMaxCodePoint + kEAcute, 32),
            head + kMaxCodePoint + kMaxCodePoint);
  // Skipping reaches the end of the string: stored unchanged.
  EXPECT_EQ(truncate_string_max(head + kMaxCodePoint, 32), head + kMaxCodePoint);
}

TEST(StringTruncation, MaxIsOmittedPastTwiceThePrefixLength) {
  const std::string head = repeat("a", 32);
  // 16 max code points = 32 units: the scan ends exactly at 2N and may still append.
  EXPECT_EQ(truncate_string_max(head + repeat(kMaxCodePoint, 16) + "b", 32),
            head + repeat(kMaxCodePoint, 16) + kDel);
  EXPECT_EQ(truncate_string_max(head + repeat(kMaxCodePoint, 16), 32),
            head + repeat(kMaxCodePoint, 16));
  EXPECT_EQ(truncate_string_max(head + repeat(kMaxCodePoint, 17) + "b", 32), std::nullopt);
}

TEST(StringTruncation, PlainPrefixMutantIsBelowTheTrueMax) {
  const std::string max = repeat("a", 32) + "b";
  const FaultScope fault(Mutant::StringMaxPlainPrefix);
  const auto mutated = truncate_string_max(max, 32);
  ASSERT_TRUE(mutated);
  EXPECT_LT(*mutated, max);  // the unsoundness the mutant exists to expose
}

TEST(StringTruncation, InvalidUtf8IsAnInputError) {
  EXPECT_THROW(truncate_string_max(repeat("a", 40) + "\xFF", 32), InputError);
  EXPECT_THROW(truncate_string_min("\xC3", 32), InputError);
}

// Strings over characters that hit every branch: below/at U+007F, BMP, pairs, U+10FFFF.
rc::Gen<std::string> edge_strings() {
  static const std::vector<std::string> alphabet = {
      "a", "~", kDel, kEAcute, "\xEF\xBF\xBF" /* U+FFFF */, kGrin, kMaxCodePoint};
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(alphabet)),
                      [](const std::vector<std::string>& parts) {
                        std::string s;
                        for (const auto& p : parts) s += p;
                        return s;
                      });
}

// std::string compares bytes as char; UTF-8 order needs unsigned bytes.
int utf8_compare(const std::string& a, const std::string& b) {
  const auto ua = std::basic_string_view<unsigned char>(
      reinterpret_cast<const unsigned char*>(a.data()), a.size());
  const auto ub = std::basic_string_view<unsigned char>(
      reinterpret_cast<const unsigned char*>(b.data()), b.size());
  return ua.compare(ub);
}

RC_GTEST_PROP(StringTruncationProp, MinIsAPrefixAndMaxIsAnUpperBound, ()) {
  const std::string s = *edge_strings();
  const int n = *rc::gen::elementOf(std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  const std::string min = truncate_string_min(s, n);
  const auto max = truncate_string_max(s, n);
  RC_CLASSIFY(min != s, "truncated");
  RC_CLASSIFY(min != s && max, "truncated, max bumped above");
  RC_CLASSIFY(!max, "no max (nothing above the prefix)");
  RC_CLASSIFY(min != s && static_cast<unsigned char>(s[min.size()]) >= 0xF0, "cut before a 4-byte character");
  RC_ASSERT(s.compare(0, min.size(), min) == 0);
  RC_ASSERT(utf8_compare(min, s) <= 0);
  if (max) RC_ASSERT(utf8_compare(*max, s) >= 0);
}


// ---- reading stored stats back (the writer's inverse) ----

// Every string over a small alphabet that holds each character class the writer treats apart:
// ASCII below U+007F, U+007F, a BMP character above it, a surrogate pair and U+10FFFF.
std::vector<std::string> strings_up_to(size_t length) {
  const std::vector<std::string> alphabet{std::string(1, '\0'), "a", kDel, kEAcute, kGrin, kMaxCodePoint};
  std::vector<std::string> all{""};
  for (size_t begin = 0, n = 0; n < length; ++n) {
    const size_t end = all.size();
    for (size_t i = begin; i < end; ++i)
      for (const std::string& c : alphabet) all.push_back(all[i] + c);
    begin = end;
  }
  return all;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// The true max T lies in what the reading of its stored max allows.
bool reading_allows(const StoredMax& read, const std::string& stored, const std::string& t) {
  if (t == stored) return read.kind == StoredString::Exact || read.kind == StoredString::MayBeTruncated;
  if (read.kind != StoredString::Truncated && read.kind != StoredString::MayBeTruncated) return false;
  if (t.size() <= read.kept.size() || !starts_with(t, read.kept) || utf8_compare(t, stored) >= 0) return false;
  const char32_t next = decode_utf8(t.substr(read.kept.size())).front();
  return read.next_low <= next && next <= read.next_high;
}

constexpr StringMinCut kMinCuts[] = {StringMinCut::CodePoints, StringMinCut::Utf16Units};

// For every string of up to 5 characters and N from 1 to 4: each writer's output is read as
// possible and its reading allows the string it was written from (exact exactly when unchanged).
TEST(StoredStrings, EveryWriterOutputIsReadAsPossibleAndAllowsItsSource) {
  for (int n = 1; n <= 4; ++n) {
    for (const std::string& t : strings_up_to(5)) {
      for (const StringMinCut cut : kMinCuts) {
        const std::string min = truncate_string_min(t, n, cut);
        const StoredMin min_read = read_stored_min(min, n);
        ASSERT_NE(min_read.kind, StoredString::Impossible) << "N=" << n << " by " << string_min_cut_name(cut);
        if (min == t) {
          EXPECT_NE(min_read.kind, StoredString::Truncated) << "N=" << n;
        } else {
          EXPECT_EQ(min_read.kind, StoredString::MayBeTruncated) << "N=" << n << " by " << string_min_cut_name(cut);
          EXPECT_TRUE(starts_with(t, min));
          EXPECT_GE(decode_utf8(t.substr(min.size())).front(), min_read.next_low) << "N=" << n;
        }
      }
      const std::optional<std::string> max = truncate_string_max(t, n);
      if (!max) continue;
      const StoredMax max_read = read_stored_max(*max, n);
      ASSERT_NE(max_read.kind, StoredString::Impossible) << "N=" << n;
      EXPECT_TRUE(reading_allows(max_read, *max, t)) << "N=" << n << " kind " << stored_string_name(max_read.kind);
    }
  }
}

// The converse: a stored value read as possible is some string's output (the witness a reading
// names — the value itself, or kept + its lowest next character — is short enough to be listed).
TEST(StoredStrings, ImpossibleMeansNoWriterOutput) {
  for (int n = 1; n <= 4; ++n) {
    std::set<std::string> mins, maxes;
    for (const std::string& t : strings_up_to(5)) {
      for (const StringMinCut cut : kMinCuts) mins.insert(truncate_string_min(t, n, cut));
      if (const auto max = truncate_string_max(t, n)) maxes.insert(*max);
    }
    for (const std::string& stored : strings_up_to(4)) {
      EXPECT_EQ(mins.count(stored) == 1, read_stored_min(stored, n).kind != StoredString::Impossible) << "N=" << n;
      EXPECT_EQ(maxes.count(stored) == 1, read_stored_max(stored, n).kind != StoredString::Impossible)
          << "N=" << n;
    }
  }
}

// And the reading of a min is no wider than the writers: it may be truncated exactly when some
// longer string is cut to it, and its least next character is the least one such a string has
// (U+0000 when a BMP character may follow, a supplementary one when only a units cut before a
// surrogate pair leaves it).
TEST(StoredStrings, AMinMayBeTruncatedExactlyWhenSomeLongerStringIsCutToIt) {
  for (int n = 1; n <= 4; ++n) {
    std::map<std::string, char32_t> least_next;
    for (const std::string& t : strings_up_to(5)) {
      for (const StringMinCut cut : kMinCuts) {
        const std::string min = truncate_string_min(t, n, cut);
        if (min == t) continue;
        const char32_t next = decode_utf8(t.substr(min.size())).front();
        const auto [it, fresh] = least_next.emplace(min, next);
        if (!fresh) it->second = std::min(it->second, next);
      }
    }
    for (const std::string& stored : strings_up_to(4)) {
      const StoredMin read = read_stored_min(stored, n);
      if (read.kind == StoredString::Impossible) continue;
      const auto cut_to = least_next.find(stored);
      EXPECT_EQ(read.kind == StoredString::MayBeTruncated, cut_to != least_next.end()) << "N=" << n;
      if (cut_to != least_next.end()) {
        EXPECT_EQ(read.next_low < 0x10000, cut_to->second < 0x10000) << "N=" << n;
      }
    }
  }
}

TEST(StoredStrings, ExamplesFromTheWriterRules) {
  EXPECT_EQ(read_stored_min("ab", 2).kind, StoredString::MayBeTruncated);
  EXPECT_EQ(read_stored_min("a", 3).kind, StoredString::Exact);
  EXPECT_EQ(read_stored_min("abc", 2).kind, StoredString::Impossible);
  // N - 1 units: a units cut that stopped before a surrogate pair, or the true min itself.
  EXPECT_EQ(read_stored_min("a", 2), (StoredMin{StoredString::MayBeTruncated, 0x10000}));
  // Fewer than N code points but N units: a units cut (the min of 31 code points and 32 units a
  // reference oracle found read as exact).
  EXPECT_EQ(read_stored_min(repeat("a", 30) + kGrin, 32), (StoredMin{StoredString::MayBeTruncated, 0}));
  EXPECT_EQ(read_stored_min(repeat("a", 31), 32), (StoredMin{StoredString::MayBeTruncated, 0x10000}));
  EXPECT_EQ(read_stored_min(repeat("a", 29) + kGrin, 32).kind, StoredString::MayBeTruncated);
  EXPECT_EQ(read_stored_min(repeat("a", 30), 32).kind, StoredString::Exact);
  // More than N units in fewer than N code points: no cut leaves that, so it is the true min.
  EXPECT_EQ(read_stored_min(repeat(kGrin, 17), 32).kind, StoredString::Exact);
  // A tie-breaker after fewer than N units is a plain character: the max is exact.
  EXPECT_EQ(read_stored_max("A" + kDel, 32).kind, StoredString::Exact);
  EXPECT_EQ(read_stored_max("ab" + kDel, 2).kind, StoredString::Truncated);
  EXPECT_EQ(read_stored_max("ab" + kDel, 2).kept, "ab");
  // Within 2N units, a U+10FFFF tail may be the true max itself.
  EXPECT_EQ(read_stored_max("ab" + kMaxCodePoint, 2).kind, StoredString::MayBeTruncated);
  EXPECT_EQ(read_stored_max("abcd", 2).kind, StoredString::Impossible);
  // One surrogate pair past N - 1 units: the cut keeps it whole.
  EXPECT_EQ(read_stored_max("a" + kGrin + kDel, 2).kind, StoredString::Truncated);
}

}  // namespace
}  // namespace skipsound
