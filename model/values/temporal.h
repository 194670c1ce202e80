// Text forms of dates and timestamps (proleptic Gregorian, UTC), shared by literals, rows and stats.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skipsound {

// Timestamps are microseconds since the epoch; Delta's stats keep only milliseconds.
inline constexpr int64_t kMicrosPerMilli = 1'000;

// Days since 1970-01-01 for a civil date, and back.
int64_t days_from_civil(int64_t year, unsigned month, unsigned day);
struct CivilDate {
  int64_t year;
  unsigned month;
  unsigned day;
};
CivilDate civil_from_days(int64_t days);

// "2020-01-31"; years outside 0000..9999 get a sign and at least four digits ("+10000-01-01").
std::string format_date(int64_t days);
// "yyyy-mm-dd" with an optional sign and 4-6 digit year; nullopt when malformed or impossible.
std::optional<int64_t> parse_date(std::string_view text);

struct TimestampFormat {
  char separator = ' ';          // between date and time: ' ' (SQL) or 'T' (ISO / JSON)
  int min_fraction_digits = 0;   // 0: no ".000" on whole seconds; 3: always at least millis
  bool utc_suffix = false;       // append "Z"
};
// Fraction digits: none/min, 3 when the value is whole milliseconds, else 6.
std::string format_timestamp(int64_t micros, const TimestampFormat& format);

enum class ZonePolicy { Reject, ConvertToUtc };
// "yyyy-mm-dd[( |T)hh:mm[:ss[.f…]]][Z|±hh[:mm]]" -> microseconds since the epoch in UTC. A zone
// offset is subtracted (ConvertToUtc) or makes the text invalid (Reject, for timestamp_ntz).
// Fractions beyond microseconds are truncated as Spark does. nullopt when malformed/out of range.
std::optional<int64_t> parse_timestamp(std::string_view text, ZonePolicy zones);

}  // namespace skipsound
