// JSON parsing that keeps the text of non-integer numbers, so decimal stats stay exact
// (nlohmann alone would turn 0.1 or a 38-digit decimal into a double).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace skipsound {

// JSON nested deeper than this is refused as a parse error: no Delta schema, stats object, log
// action or row comes near it, and the readers walk documents recursively.
inline constexpr int kMaxJsonDepth = 256;

// nlohmann::json::parse with the depth limit. Throws nlohmann::json::parse_error on malformed
// text and on nesting deeper than kMaxJsonDepth.
nlohmann::json parse_json(std::string_view text);

// Parses JSON text; each number that is not a plain int64/uint64 (fractions, exponents, huge
// integers) becomes a marker value holding its exact text, read back with number_text().
// Throws as parse_json does.
nlohmann::json parse_json_exact(const std::string& text);

// For a SAX reader's parse_error handler: every error the parser reports, a number too large
// for a double included (nlohmann reports that one as out_of_range), leaves as a parse_error at
// its byte position, which every reader already turns into a message with its location.
[[noreturn]] void throw_as_parse_error(std::size_t position, const nlohmann::json::exception& e);

// A number kept as its exact text, as parse_json_exact produces for non-integers.
nlohmann::json kept_number(const std::string& text);

// The number's text: the kept text of a marker, or the integer / shortest round-trip double
// text of an ordinary JSON number. nullopt when `j` is not a number.
std::optional<std::string> number_text(const nlohmann::json& j);
// True for plain JSON numbers and for kept-text markers.
bool is_json_number(const nlohmann::json& j);

}  // namespace skipsound
