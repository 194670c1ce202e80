#include "smt/string_sequence.h"

#include <algorithm>
#include <stdexcept>

#include "smt/code_points.h"
#include "model/values/utf8.h"

namespace skipsound::smt {

namespace {

bool is_string_literal(const Expr& e) {
  return e.kind == ExprKind::Literal && (e.literal.is_null() || e.literal.type.kind == TypeKind::String);
}

bool is_bounded_pattern(const std::vector<LikeElement>& pattern) {
  for (size_t i = 0; i + 1 < pattern.size(); ++i)
    if (pattern[i].kind == LikeElementKind::AnyRun) return false;
  return true;
}

bool bounded_like_pattern(const Expr& like) {
  const Expr& pattern = *like.children[1];
  if (pattern.kind != ExprKind::Literal || pattern.literal.type.kind != TypeKind::String) return false;
  const auto elements = parse_like_pattern(pattern.literal.as_string(), like_escape(like));
  return elements && is_bounded_pattern(*elements);
}

// Whether `parent`'s use of its child `index` (a string column) compares it with constants only.
bool constant_use(const Expr& parent, size_t index) {
  const auto others_are_literals = [&] {
    for (size_t i = 0; i < parent.children.size(); ++i)
      if (i != index && !is_string_literal(*parent.children[i])) return false;
    return true;
  };
  switch (parent.kind) {
    case ExprKind::IsNull: case ExprKind::IsNotNull: return true;
    case ExprKind::Compare: case ExprKind::Between: case ExprKind::In:
      return index == 0 || parent.kind == ExprKind::Compare ? others_are_literals() : false;
    case ExprKind::Like: return index == 0 && bounded_like_pattern(parent);
    case ExprKind::Call:
      return parent.function == "startswith" && index == 0 && is_string_literal(*parent.children[1]);
    default: return false;
  }
}

void classify_uses(const Expr& e, const Schema& schema, std::set<int>& constant_only, std::set<int>& other) {
  for (size_t i = 0; i < e.children.size(); ++i) {
    const Expr& child = *e.children[i];
    if (child.kind == ExprKind::Column && child.leaf >= 0 &&
        schema.leaves().at(child.leaf).type.kind == TypeKind::String)
      (constant_use(e, i) ? constant_only : other).insert(child.leaf);
    classify_uses(child, schema, constant_only, other);
  }
}

int code_point_length(const std::string& s) { return static_cast<int>(code_point_count(s)); }

void longest_in(const Expr& e, int& longest) {
  if (e.kind == ExprKind::Literal && e.literal.type.kind == TypeKind::String && !e.literal.is_null())
    longest = std::max(longest, code_point_length(e.literal.as_string()));
  for (const ExprPtr& child : e.children) longest_in(*child, longest);
}

void longest_in(const std::optional<Value>& v, int& longest) {
  if (v && !v->is_null() && v->type.kind == TypeKind::String)
    longest = std::max(longest, code_point_length(v->as_string()));
}

void fits(const CodeSequence& s, size_t length) {
  if (length >= s.codes.size()) throw std::invalid_argument("smt: string constant beyond the sequence capacity");
}

z3::expr code(const CodeSequence& s, unsigned c) { return s.length.ctx().int_val(c); }

}  // namespace

std::optional<std::vector<LikeElement>> parse_like_pattern(const std::string& pattern, char32_t escape) {
  const std::vector<char32_t> chars = decode_utf8(pattern);
  std::vector<LikeElement> elements;
  for (size_t i = 0; i < chars.size(); ++i) {
    if (chars[i] == escape) {
      if (i + 1 == chars.size() || (chars[i + 1] != U'_' && chars[i + 1] != U'%' && chars[i + 1] != escape))
        return std::nullopt;
      elements.push_back({LikeElementKind::Char, chars[++i]});
    } else if (chars[i] == U'%') {
      if (elements.empty() || elements.back().kind != LikeElementKind::AnyRun)
        elements.push_back({LikeElementKind::AnyRun, 0});  // '%%' is one '%'
    } else if (chars[i] == U'_') {
      elements.push_back({LikeElementKind::AnyOne, 0});
    } else {
      elements.push_back({LikeElementKind::Char, chars[i]});
    }
  }
  return elements;
}

std::set<int> sequence_leaves(const Expr& predicate, const Schema& schema) {
  std::set<int> constant_only, other;
  classify_uses(predicate, schema, constant_only, other);
  std::set<int> leaves;
  std::set_difference(constant_only.begin(), constant_only.end(), other.begin(), other.end(),
                      std::inserter(leaves, leaves.end()));
  return leaves;
}

int sequence_capacity(const Expr& predicate, const RowAllowance& allowance) {
  int longest = 0;
  longest_in(predicate, longest);
  for (const ColumnAllowance& a : allowance.columns) {
    longest_in(a.lower, longest);
    longest_in(a.upper, longest);
    for (const ValueRange& r : a.realise_one_of) {
      longest_in(r.lower, longest);
      longest_in(r.upper, longest);
      if (r.prefix) longest = std::max(longest, code_point_length(*r.prefix));
    }
  }
  return longest + 1;
}

z3::expr sequence_equals(const CodeSequence& s, const std::vector<unsigned>& constant) {
  fits(s, constant.size());
  z3::expr equal = s.length == s.length.ctx().int_val(static_cast<int64_t>(constant.size()));
  for (size_t i = 0; i < constant.size(); ++i) equal = equal && s.codes[i] == code(s, constant[i]);
  return equal;
}

// Lexicographic over the codes padded with -1: from the last position back, s < c at i when
// s_i < c_i, or s_i = c_i and s < c from i + 1. Past the constant's end s cannot be smaller.
z3::expr sequence_below(const CodeSequence& s, const std::vector<unsigned>& constant) {
  fits(s, constant.size());
  z3::expr below = s.length.ctx().bool_val(false);
  for (size_t i = constant.size(); i-- > 0;)
    below = s.codes[i] < code(s, constant[i]) || (s.codes[i] == code(s, constant[i]) && below);
  return below;
}

// Past the constant's end s is greater when it goes on (its code there is not -1).
z3::expr sequence_above(const CodeSequence& s, const std::vector<unsigned>& constant) {
  fits(s, constant.size());
  z3::expr above = s.codes[constant.size()] != s.length.ctx().int_val(kPastTheEnd);
  for (size_t i = constant.size(); i-- > 0;)
    above = s.codes[i] > code(s, constant[i]) || (s.codes[i] == code(s, constant[i]) && above);
  return above;
}

namespace {

void same_capacity(const CodeSequence& a, const CodeSequence& b) {
  if (a.codes.size() != b.codes.size()) throw std::invalid_argument("smt: sequences of different capacities");
}

}  // namespace

z3::expr sequences_equal(const CodeSequence& a, const CodeSequence& b) {
  same_capacity(a, b);
  z3::expr equal = a.length == b.length;
  for (size_t i = 0; i < a.codes.size(); ++i) equal = equal && a.codes[i] == b.codes[i];
  return equal;
}

// Lexicographic over the codes padded with -1, from the last position back.
z3::expr sequences_below(const CodeSequence& a, const CodeSequence& b) {
  same_capacity(a, b);
  z3::expr below = a.length.ctx().bool_val(false);
  for (size_t i = a.codes.size(); i-- > 0;) below = a.codes[i] < b.codes[i] || (a.codes[i] == b.codes[i] && below);
  return below;
}

z3::expr sequence_has_prefix(const CodeSequence& s, const std::vector<unsigned>& prefix) {
  fits(s, prefix.size());
  z3::expr has = s.length >= s.length.ctx().int_val(static_cast<int64_t>(prefix.size()));
  for (size_t i = 0; i < prefix.size(); ++i) has = has && s.codes[i] == code(s, prefix[i]);
  return has;
}

std::optional<z3::expr> sequence_like(const CodeSequence& s, const std::vector<LikeElement>& pattern) {
  if (!is_bounded_pattern(pattern)) return std::nullopt;
  const bool open_end = !pattern.empty() && pattern.back().kind == LikeElementKind::AnyRun;
  const size_t fixed = open_end ? pattern.size() - 1 : pattern.size();
  fits(s, fixed);
  const z3::expr count = s.length.ctx().int_val(static_cast<int64_t>(fixed));
  z3::expr match = open_end ? s.length >= count : s.length == count;
  for (size_t i = 0; i < fixed; ++i)
    if (pattern[i].kind == LikeElementKind::Char) match = match && s.codes[i] == code(s, pattern[i].code_point);
  return match;
}

}  // namespace skipsound::smt
