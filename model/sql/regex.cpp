#include "model/sql/regex.h"

#include <map>
#include <memory>
#include <regex>

#include "model/values/utf8.h"

namespace skipsound {

namespace {

static_assert(sizeof(wchar_t) == sizeof(char32_t), "patterns are matched as UTF-32 code points");

std::wstring wide(std::string_view utf8) {
  const std::vector<char32_t> cps = decode_utf8(utf8);
  return std::wstring(cps.begin(), cps.end());
}

// Java constructs ECMAScript lacks or reads differently: a backslash before one of these letters
// (\A \z \Z \G \Q \E \p \P \h \H \v \V \R \X \e), inline flags, atomic groups, lookbehind and
// named groups (`(?` not followed by `:`, `=` or `!`), possessive quantifiers (`*+`, `++`, `?+`,
// `}+`) and class intersection (`&&` inside brackets).
std::optional<std::string> java_only_construct(std::string_view p) {
  constexpr std::string_view kJavaEscapes = "AzZGQEpPhHvVRXe";
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    const char next = i + 1 < p.size() ? p[i + 1] : '\0';
    if (c == '\\') {
      if (kJavaEscapes.find(next) != std::string_view::npos && next != '\0') {
        return std::string("the Java escape \\") + next + " is not modelled";
      }
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      if (c == '&' && next == '&') return std::string("class intersection (&&) is not modelled");
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (next == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // a leading ']' is a literal
      continue;
    }
    if (c == '(' && next == '?') {
      const char kind = i + 2 < p.size() ? p[i + 2] : '\0';
      if (kind != ':' && kind != '=' && kind != '!') {
        return std::string("the group (?") + kind + " (flags, lookbehind, atomic or named) is not modelled";
      }
    }
    if ((c == '*' || c == '+' || c == '?' || c == '}') && next == '+') {
      return std::string("possessive quantifiers (") + c + "+) are not modelled";
    }
  }
  return std::nullopt;
}

// ECMAScript, without back-references: libstdc++'s polynomial mode matches breadth-first, so a
// match costs |text| x |pattern| and never recurses per character.
std::regex_constants::syntax_option_type syntax() {
#if defined(__GLIBCXX__)
  return std::regex_constants::ECMAScript | std::regex_constants::__polynomial;
#else
  return std::regex_constants::ECMAScript;
#endif
}

struct Compiled {
  std::optional<std::wregex> regex;
  std::optional<std::string> problem;
};

const Compiled& compiled(std::string_view pattern) {
  // Predicates evaluate one pattern on many rows: keep the last few compiled.
  thread_local std::map<std::string, std::shared_ptr<Compiled>, std::less<>> cache;
  if (const auto it = cache.find(pattern); it != cache.end()) return *it->second;
  if (cache.size() >= 64) cache.clear();
  auto entry = std::make_shared<Compiled>();
  if (pattern.size() > kMaxRegexBytes) {
    entry->problem = "longer than " + std::to_string(kMaxRegexBytes) + " bytes";
  } else if (!is_valid_utf8(pattern)) {
    entry->problem = "not valid UTF-8";
  } else if (auto java = java_only_construct(pattern)) {
    entry->problem = std::move(java);
  } else {
    try {
      entry->regex.emplace(wide(pattern), syntax());
    } catch (const std::regex_error& e) {
      entry->problem = e.what();
    }
  }
  return *cache.emplace(std::string(pattern), std::move(entry)).first->second;
}

}  // namespace

std::optional<std::string> regex_problem(std::string_view pattern) { return compiled(pattern).problem; }

std::optional<bool> regex_find(std::string_view text, std::string_view pattern) {
  const Compiled& c = compiled(pattern);
  if (!c.regex) return std::nullopt;
  const std::wstring w = wide(text);
  return std::regex_search(w, *c.regex);
}

}  // namespace skipsound
