#include "model/string_truncation.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/input_error.h"

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
  const auto mutated = truncate_string_max(max, 32, Mutant::StringMaxPlainPrefix);
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
  const int n = *rc::gen::inRange(1, 9);
  const std::string min = truncate_string_min(s, n);
  RC_ASSERT(s.compare(0, min.size(), min) == 0);
  RC_ASSERT(utf8_compare(min, s) <= 0);
  if (const auto max = truncate_string_max(s, n)) RC_ASSERT(utf8_compare(*max, s) >= 0);
}

}  // namespace
}  // namespace skipsound
