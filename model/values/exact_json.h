// JSON parsing that keeps the text of non-integer numbers, so decimal stats stay exact
// (nlohmann alone would turn 0.1 or a 38-digit decimal into a double).
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace skipsound {

// Parses JSON text; each number that is not a plain int64/uint64 (fractions, exponents, huge
// integers) becomes a marker value holding its exact text, read back with number_text().
// Throws nlohmann::json::parse_error on malformed text.
nlohmann::json parse_json_exact(const std::string& text);

// A number kept as its exact text, as parse_json_exact produces for non-integers.
nlohmann::json kept_number(const std::string& text);

// The number's text: the kept text of a marker, or the integer / shortest round-trip double
// text of an ordinary JSON number. nullopt when `j` is not a number.
std::optional<std::string> number_text(const nlohmann::json& j);
// True for plain JSON numbers and for kept-text markers.
bool is_json_number(const nlohmann::json& j);

}  // namespace skipsound
