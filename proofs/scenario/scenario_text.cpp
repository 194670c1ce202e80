#include "proofs/scenario/scenario_text.h"

#include <cctype>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "model/stats/stats_collection.h"
#include "model/values/ascii_text.h"
#include "model/values/input_error.h"

namespace skipsound::scenario_text {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool starts_with_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size() || ascii_lower(text.substr(0, word.size())) != ascii_lower(word)) return false;
  return text.size() == word.size() || !is_word_char(text[word.size()]);
}

// Splits at `separator` outside single quotes, brackets and parentheses.
std::vector<std::string> split_top_level(std::string_view text, char separator) {
  std::vector<std::string> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(trim_whitespace(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim_whitespace(text.substr(start)));
  return parts;
}

// Position of the keyword as a whole word outside quotes, or npos.
size_t find_keyword(std::string_view text, std::string_view keyword) {
  bool quoted = false;
  for (size_t i = 0; i + keyword.size() <= text.size(); ++i) {
    if (text[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    const bool boundary_before = i == 0 || !is_word_char(text[i - 1]);
    if (boundary_before && starts_with_word(text.substr(i), keyword)) return i;
  }
  return std::string_view::npos;
}

// Position of the keyword as a whole word at the top level of `text` — outside quotes (' and "),
// brackets, parentheses and CASE ... END — at or after `from`; npos when absent.
size_t find_top_level(std::string_view text, std::string_view keyword, size_t from) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    const bool boundary_before = i == 0 || !is_word_char(text[i - 1]);
    if (!boundary_before) continue;
    if (starts_with_word(text.substr(i), "case")) ++depth;
    if (starts_with_word(text.substr(i), "end")) --depth;
    if (depth == 0 && i >= from && starts_with_word(text.substr(i), keyword)) return i;
  }
  return std::string_view::npos;
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

size_t end_of_column_name(const std::string& column) {
  bool quoted = false;
  for (size_t i = 0; i < column.size(); ++i) {
    if (column[i] == '`') quoted = !quoted;
    if (!quoted && std::isspace(static_cast<unsigned char>(column[i]))) return i;
  }
  return column.size();
}

std::string top_level_name(const std::string& text) {
  const std::vector<ColumnPath> columns = parse_stats_columns(text);
  if (columns.size() != 1 || columns.front().size() != 1) {
    throw InputError("expected one top-level column name, got '" + text + "' (backquote a name with dots)");
  }
  return columns.front().front();
}

bool on_off(const std::string& value) {
  const std::string v = ascii_lower(value);
  if (v == "on" || v == "true") return true;
  if (v == "off" || v == "false") return false;
  throw InputError("expected on or off, got '" + value + "'");
}

long long parse_long(const std::string& text) {
  size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::logic_error&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw InputError("expected an integer, got '" + text + "'");
  return value;
}

int parse_int(const std::string& text) {
  const long long value = parse_long(text);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    throw InputError("expected a 32-bit integer, got '" + text + "'");
  }
  return static_cast<int>(value);
}

}  // namespace skipsound::scenario_text
