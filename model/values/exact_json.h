// Exact JSON numbers. Every reader of stats, rows, logs, decisions, scenarios and corpus cases
// parses with parse_json_exact, and every writer renders with dump_json: a number that is not a
// plain int64/uint64 (a fraction, an exponent, a 38-digit decimal) stays as the text it was
// written with, so no decimal ever passes through a double (nlohmann alone would read 0.1 or
// 123456789012345678.91 as the nearest double and print 10^38 - 1 as 1e+38).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace skipsound {

// JSON nested deeper than this is refused as a parse error: no Delta schema, stats object, log
// action or row comes near it, and the readers walk documents recursively.
inline constexpr int kMaxJsonDepth = 256;

// Parses JSON text; each number that is not a plain int64/uint64 (fractions, exponents, huge
// integers) becomes a marker value holding its exact text, read back with number_text(). Throws
// nlohmann::json::parse_error on malformed text, on a number too large for a double and on
// nesting deeper than kMaxJsonDepth.
nlohmann::json parse_json_exact(std::string_view text);

// For a SAX reader's parse_error handler: every error the parser reports, a number too large
// for a double included (nlohmann reports that one as out_of_range), leaves as a parse_error at
// its byte position, which every reader already turns into a message with its location.
[[noreturn]] void throw_as_parse_error(std::size_t position, const nlohmann::json::exception& e);

// A number kept as its exact text (`text` must be a JSON number), as parse_json_exact produces
// for non-integers; dump_json writes it back verbatim.
nlohmann::json kept_number(const std::string& text);

// The number's text: the kept text of a marker, or the integer / shortest round-trip double
// text of an ordinary JSON number. nullopt when `j` is not a number.
std::optional<std::string> number_text(const nlohmann::json& j);
// True for plain JSON numbers and for kept-text markers.
bool is_json_number(const nlohmann::json& j);

// nlohmann's dump (same layout, escaping and error handling), except that a kept number is
// written as its text: the only way a document holding kept numbers becomes text.
std::string dump_json(const nlohmann::json& j, int indent = -1, bool ensure_ascii = false,
                      nlohmann::json::error_handler_t errors = nlohmann::json::error_handler_t::strict);
std::string dump_json(const nlohmann::ordered_json& j, int indent = -1, bool ensure_ascii = false,
                      nlohmann::json::error_handler_t errors = nlohmann::json::error_handler_t::strict);

}  // namespace skipsound
