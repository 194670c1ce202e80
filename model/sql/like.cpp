#include "model/sql/like.h"

#include <vector>

#include "model/values/utf8.h"

namespace skipsound {

std::optional<std::vector<LikeToken>> like_tokens(std::string_view pattern, char32_t escape) {
  std::vector<LikeToken> tokens;
  const std::vector<char32_t> cps = decode_utf8(pattern);
  for (size_t i = 0; i < cps.size(); ++i) {
    if (cps[i] == escape) {
      if (++i == cps.size()) return std::nullopt;
      if (cps[i] != U'%' && cps[i] != U'_' && cps[i] != escape) return std::nullopt;
      tokens.push_back({LikeToken::Kind::Literal, cps[i]});
    } else if (cps[i] == U'%') {
      tokens.push_back({LikeToken::Kind::AnyRun});
    } else if (cps[i] == U'_') {
      tokens.push_back({LikeToken::Kind::AnyOne});
    } else {
      tokens.push_back({LikeToken::Kind::Literal, cps[i]});
    }
  }
  return tokens;
}

std::optional<LikeMatch> like_match(std::string_view text, std::string_view pattern, char32_t escape) {
  const auto tokens = like_tokens(pattern, escape);
  if (!tokens) return std::nullopt;
  const std::vector<char32_t> s = decode_utf8(text);
  // Greedy matching with one backtrack point (the last '%'): linear-time in practice, and
  // never worse than |s| * |pattern|.
  size_t si = 0, ti = 0;
  std::optional<size_t> star_token, star_text;
  while (si < s.size()) {
    if (ti < tokens->size()) {
      const LikeToken& t = (*tokens)[ti];
      if (t.kind == LikeToken::Kind::AnyRun) {
        star_token = ti++;
        star_text = si;
        continue;
      }
      if (t.kind == LikeToken::Kind::AnyOne || t.literal == s[si]) {
        ++ti;
        ++si;
        continue;
      }
    }
    if (!star_token) return LikeMatch::NoMatch;
    ti = *star_token + 1;
    si = ++*star_text;
  }
  while (ti < tokens->size() && (*tokens)[ti].kind == LikeToken::Kind::AnyRun) ++ti;
  return ti == tokens->size() ? LikeMatch::Match : LikeMatch::NoMatch;
}

}  // namespace skipsound
