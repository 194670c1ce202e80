#include "tools/mutate/mutant_schema.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>

#include "tools/mutate/source_tokens.h"

namespace skipsound::mutation {

namespace {

size_t end_of(const Token& t) { return t.offset + t.text.size(); }

// C++ precedence of the binary operators an operand scan must stop at (higher binds tighter);
// 0 for a token that ends any operand (a clause boundary), kNoToken for one inside an operand.
size_t precedence(const Token& t) {
  constexpr std::pair<std::string_view, size_t> kBinary[] = {
      {"<", 9}, {"<=", 9}, {">", 9}, {">=", 9}, {"==", 8}, {"!=", 8}, {"&", 7}, {"^", 6}, {"|", 5}, {"&&", 4}, {"||", 3}};
  constexpr std::string_view kBoundaries[] = {";", ",", "?", ":", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                                              "^=", "<<=", ">>=", "return", "co_return", "co_yield", "throw",
                                              "case", "else", "do"};
  if (std::find(std::begin(kBoundaries), std::end(kBoundaries), t.text) != std::end(kBoundaries)) return 0;
  if (!spaced(t)) return kNoToken;  // `vector<int>`, `T&&`, `&x`: not a binary operator (mutations.h)
  for (const auto& [text, level] : kBinary) {
    if (t.text == text) return level;
  }
  return kNoToken;
}

// The tokens [first, last] of the binary operator at `op`'s two operands, or nullopt.
std::optional<std::pair<size_t, size_t>> operand_extent(const Tokens& ts, size_t op) {
  const size_t level = precedence(ts[op]);
  size_t first = op;
  for (size_t i = op; i-- > 0;) {
    if (closes(ts[i])) {
      i = matching_open(ts, i);
      if (i == kNoToken) return std::nullopt;
    } else if (opens(ts[i]) || precedence(ts[i]) < level) {
      break;  // left-associative: an operator of the same level stays in the left operand
    }
    first = i;
  }
  size_t last = op;
  for (size_t i = op + 1; i < ts.size(); ++i) {
    if (opens(ts[i])) {
      i = matching_close(ts, i);
      if (i == kNoToken) return std::nullopt;
    } else if (closes(ts[i]) || precedence(ts[i]) <= level) {
      break;
    }
    last = i;
  }
  if (first == op || last == op) return std::nullopt;
  return std::pair{first, last};
}

// A literal a constant expression may need (a template argument, an array bound or initializer
// of a constexpr table, a case label): a run-time choice there does not compile.
bool in_constant_context(const Tokens& ts, size_t literal) {
  const bool template_argument = (literal > 0 && is(ts[literal - 1], "<") && !ts[literal - 1].space_after) ||
                                 (literal + 1 < ts.size() && (is(ts[literal + 1], ">") || is(ts[literal + 1], ">>")) &&
                                  !ts[literal + 1].space_before);
  if (template_argument) return true;
  constexpr std::string_view kConstantKeywords[] = {"constexpr", "consteval", "constinit", "static_assert",
                                                    "template",  "enum",      "case",      "alignas"};
  constexpr std::string_view kBlockOpeners[] = {")", "else", "do", "try", ";", "}", ":"};
  for (size_t i = literal; i-- > 0;) {
    if (is(ts[i], ";") || is(ts[i], ":") || is(ts[i], "return")) return false;  // `case X: return 0;` is run time
    if (is(ts[i], "}")) {
      i = matching_open(ts, i);
      if (i == kNoToken) return false;
      continue;
    }
    if (is(ts[i], "{") && (i == 0 || std::find(std::begin(kBlockOpeners), std::end(kBlockOpeners), ts[i - 1].text) !=
                                         std::end(kBlockOpeners))) {
      return false;  // a block's start; an initializer's brace is read through
    }
    if (std::find(std::begin(kConstantKeywords), std::end(kConstantKeywords), ts[i].text) != std::end(kConstantKeywords)) {
      return true;
    }
  }
  return false;
}

struct Choice {
  size_t id = 0;
  std::string text;  // the whole site as this mutant reads, on one line
};

struct Site {
  size_t begin = 0, end = 0;  // offsets in the source
  bool statement = false;     // a deleted statement; otherwise an expression
  bool condition = false;     // the original is read as a condition (static_cast<bool>)
  std::vector<Choice> choices;
  std::vector<size_t> children;  // indices of the sites nested in its original text
};

// One line: a schema adds no line, so the compiler's and coverage's line numbers stay the
// original's. Fails where a newline is not mere whitespace (a line comment, a raw string).
std::optional<std::string> on_one_line(std::string text) {
  if (text.find('\n') == std::string::npos) return text;
  if (text.find("//") != std::string::npos || text.find("R\"") != std::string::npos) return std::nullopt;
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::optional<Site> site_of(std::string_view src, const Tokens& ts, const NumberedMutation& n) {
  const Mutation& m = n.mutation;
  const auto at = std::lower_bound(ts.begin(), ts.end(), m.offset, [](const Token& t, size_t o) { return t.offset < o; });
  if (at == ts.end() || at->offset != m.offset) return std::nullopt;
  const size_t token = static_cast<size_t>(at - ts.begin());
  Site site;
  site.begin = m.offset;
  site.end = m.offset + m.length;
  switch (m.op) {
    case Operator::Relational:
    case Operator::Logical: {
      const auto extent = operand_extent(ts, token);
      if (!extent) return std::nullopt;
      site.begin = ts[extent->first].offset;
      site.end = end_of(ts[extent->second]);
      break;
    }
    case Operator::Constant:
      if (in_constant_context(ts, token)) return std::nullopt;
      break;
    case Operator::NegateCondition:
    case Operator::ConditionTrue:
    case Operator::ConditionFalse:
      site.condition = true;
      break;
    case Operator::ReturnConstant:
      break;
    case Operator::DeleteStatement:
      site.statement = true;
      break;
  }
  const std::string mutated = std::string(src.substr(site.begin, m.offset - site.begin)) + m.replacement +
                              std::string(src.substr(m.offset + m.length, site.end - m.offset - m.length));
  const auto text = on_one_line(mutated);
  if (!text) return std::nullopt;
  site.choices.push_back({n.id, *text});
  return site;
}

std::string mutant_is(size_t id) { return "skipsound_mutant_is(" + std::to_string(id) + ")"; }

class Renderer {
 public:
  Renderer(std::string_view src, std::vector<Site> sites) : src_(src), sites_(std::move(sites)) {}

  std::string render(const std::vector<size_t>& roots) const { return span(0, src_.size(), roots); }

 private:
  std::string span(size_t begin, size_t end, const std::vector<size_t>& nested) const {
    std::string out;
    size_t at = begin;
    for (size_t child : nested) {
      out += src_.substr(at, sites_[child].begin - at);
      out += site(sites_[child]);
      at = sites_[child].end;
    }
    return out + std::string(src_.substr(at, end - at));
  }

  std::string site(const Site& s) const {
    const std::string original = span(s.begin, s.end, s.children);
    if (s.statement) {
      return "{ if (!" + mutant_is(s.choices.front().id) + ") { " + original + " } }";
    }
    std::string out = "(";
    for (const Choice& c : s.choices) out += mutant_is(c.id) + " ? " + c.text + " : ";
    return out + (s.condition ? "static_cast<bool>(" + original + "))" : "(" + original + "))");
  }

  std::string_view src_;
  std::vector<Site> sites_;
};

}  // namespace

SchemaSource render_schemata(std::string_view source, const std::vector<NumberedMutation>& mutations,
                             const std::set<size_t>& excluded, const std::string& include_line) {
  const LexedSource lexed = lex(source);
  SchemaSource out;
  std::vector<Site> sites;
  for (const NumberedMutation& n : mutations) {
    if (excluded.count(n.id)) {
      out.left_out.push_back(n.id);
      continue;
    }
    if (auto s = site_of(source, lexed.tokens, n)) {
      sites.push_back(std::move(*s));
    } else {
      out.left_out.push_back(n.id);
    }
  }
  // Outer sites first; sites over the same span and of the same kind become one choice.
  std::stable_sort(sites.begin(), sites.end(), [](const Site& a, const Site& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end != b.end ? a.end > b.end : a.statement > b.statement;
  });
  std::vector<Site> merged;
  for (Site& s : sites) {
    if (!merged.empty() && merged.back().begin == s.begin && merged.back().end == s.end &&
        merged.back().statement == s.statement && !s.statement) {
      merged.back().condition |= s.condition;
      for (Choice& c : s.choices) merged.back().choices.push_back(std::move(c));
    } else {
      merged.push_back(std::move(s));
    }
  }
  std::vector<size_t> roots, open;
  std::vector<bool> kept(merged.size(), false);
  for (size_t i = 0; i < merged.size(); ++i) {
    while (!open.empty() && merged[open.back()].end <= merged[i].begin) open.pop_back();
    if (!open.empty() && merged[i].end > merged[open.back()].end) continue;  // crosses its container
    (open.empty() ? roots : merged[open.back()].children).push_back(i);
    open.push_back(i);
    kept[i] = true;
  }
  for (size_t i = 0; i < merged.size(); ++i) {
    for (const Choice& c : merged[i].choices) (kept[i] ? out.chosen : out.left_out).push_back(c.id);
  }
  out.text = include_line + "\n#line 1\n" + Renderer(source, std::move(merged)).render(roots);
  std::sort(out.chosen.begin(), out.chosen.end());
  std::sort(out.left_out.begin(), out.left_out.end());
  return out;
}

std::vector<std::pair<size_t, LineSpan>> schema_site_lines(std::string_view source,
                                                           const std::vector<NumberedMutation>& mutations) {
  const LexedSource lexed = lex(source);
  const auto line_of = [&](size_t offset) {
    return static_cast<size_t>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(offset), '\n')) + 1;
  };
  std::vector<std::pair<size_t, LineSpan>> lines;
  for (const NumberedMutation& n : mutations) {
    const auto s = site_of(source, lexed.tokens, n);
    const size_t begin = s ? s->begin : n.mutation.offset;
    const size_t end = s ? s->end : n.mutation.offset + n.mutation.length;
    lines.push_back({n.id, {line_of(begin), line_of(end)}});
  }
  return lines;
}

}  // namespace skipsound::mutation
