// The interleaving worlds' value column x: its SQL type, drawn per world, and how a rank renders.
// The world generators work on integer ranks (bands, boundaries, thresholds); each type maps the
// ranks to its own values in the same order, so every shape the generators aim for (disjoint
// bands, a row moved across a threshold) holds whatever the type. The values sit where Delta's
// stats rules have edges (docs/semantics.md §4.3): decimals with a scale, doubles with -0.0 and NaN
// (NaN is the greatest double in Spark's order, so the top rank and above are NaN), strings of
// multibyte code points and one surrogate pair that run past the 32-character stats prefix,
// dates across a leap day, and timestamps with sub-millisecond digits across a second (stats keep
// milliseconds).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace skipsound::generators {

enum class XType { Int, Decimal, Double, String, Date, Timestamp };

const char* x_type_sql(XType type);  // "int", "decimal(10,2)", ... as in a scenario's schema line
const std::vector<XType>& all_x_types();

// Rank k as a SQL literal of the type ("2.25", "DATE '2024-02-21'", "CAST('NaN' AS DOUBLE)").
std::string x_literal(XType type, int rank);

// Rank k as the JSON value a scenario's row holds ("null" when there is no rank).
std::string x_json(XType type, std::optional<int> rank);

// Whether `x + 1` is an expression of the column's own type (the numeric types).
bool x_has_plus_one(XType type);

// The rank drawn as NaN and every rank above it, for doubles.
inline constexpr int kDoubleNanRank = 40;

}  // namespace skipsound::generators
