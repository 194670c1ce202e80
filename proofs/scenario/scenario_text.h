// The words of the scenario language (scenario_format()): keywords are whole words in any case,
// lists split outside quotes and brackets, names and integers read whole. Shared by the parser of
// scenario files and the builder both it and the explorer drive.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound::scenario_text {

bool is_word_char(char c);
// Whether `text` starts with `word` (any case) followed by a non-word character or its end.
bool starts_with_word(std::string_view text, std::string_view word);
// Splits at `separator` outside single quotes, brackets and parentheses; the parts trimmed.
std::vector<std::string> split_top_level(std::string_view text, char separator);
// Position of the keyword as a whole word outside quotes, or npos.
size_t find_keyword(std::string_view text, std::string_view keyword);
// Position of the keyword as a whole word at the top level of `text` — outside quotes (' and "),
// brackets, parentheses and CASE ... END — at or after `from`; npos when absent.
size_t find_top_level(std::string_view text, std::string_view keyword, size_t from = 0);
std::vector<std::string> words_of(const std::string& text);  // split at whitespace

// The first whitespace outside backquotes ends a schema column's name.
size_t end_of_column_name(const std::string& column);
// A name as Delta's column lists write it ("x", "`a.b`"): the same syntax as statsColumns.
std::string top_level_name(const std::string& text);
bool on_off(const std::string& value);  // on/true or off/false, any case
// The whole text, an integer: `range id 9x 10` is refused, not read as `range id 9 10`.
long long parse_long(const std::string& text);
int parse_int(const std::string& text);

}  // namespace skipsound::scenario_text
