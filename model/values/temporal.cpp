#include "model/values/temporal.h"

#include <cstdio>

namespace skipsound {

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

std::string two_digits(int64_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(v));
  return buf;
}

// A cursor over the text with the small number readers both parsers need.
struct Cursor {
  std::string_view text;
  size_t pos = 0;

  bool done() const { return pos >= text.size(); }
  char peek() const { return done() ? '\0' : text[pos]; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++pos;
    return true;
  }
  // Exactly `min`..`max` decimal digits.
  std::optional<int64_t> digits(size_t min, size_t max) {
    size_t start = pos;
    int64_t v = 0;
    while (!done() && pos - start < max && text[pos] >= '0' && text[pos] <= '9') {
      v = v * 10 + (text[pos] - '0');
      ++pos;
    }
    if (pos - start < min) return std::nullopt;
    return v;
  }
};

std::optional<int64_t> read_date(Cursor& c) {
  bool negative = false;
  if (c.eat('-')) negative = true;
  else c.eat('+');
  auto year = c.digits(4, 6);
  if (!year || !c.eat('-')) return std::nullopt;
  auto month = c.digits(1, 2);
  if (!month || !c.eat('-')) return std::nullopt;
  auto day = c.digits(1, 2);
  if (!day) return std::nullopt;
  int64_t y = negative ? -*year : *year;
  if (*month < 1 || *month > 12 || *day < 1 ||
      *day > days_in_month(y, static_cast<unsigned>(*month))) {
    return std::nullopt;
  }
  return days_from_civil(y, static_cast<unsigned>(*month), static_cast<unsigned>(*day));
}

// Seconds east of UTC, from "Z", "+hh", "+hh:mm" or "+hhmm".
std::optional<int64_t> read_zone(Cursor& c) {
  if (c.eat('Z') || c.eat('z')) return 0;
  int sign = c.eat('+') ? 1 : (c.eat('-') ? -1 : 0);
  if (sign == 0) return std::nullopt;
  auto hours = c.digits(2, 2);
  if (!hours) return std::nullopt;
  int64_t minutes = 0;
  bool colon = c.eat(':');
  if (colon || !c.done()) {
    auto m = c.digits(2, 2);
    if (!m) return std::nullopt;
    minutes = *m;
  }
  if (*hours > 18 || minutes > 59) return std::nullopt;
  return sign * (*hours * 3600 + minutes * 60);
}

}  // namespace

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  // Howard Hinnant's algorithm, valid over the whole proleptic Gregorian calendar.
  y -= m <= 2;
  const int64_t era = floor_div(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilDate civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = floor_div(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const unsigned d = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  const unsigned m = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{yoe + era * 400 + (m <= 2), m, d};
}

std::string format_date(int64_t days) {
  CivilDate c = civil_from_days(days);
  char buf[48];
  if (c.year >= 0 && c.year <= 9999) {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(c.year), c.month,
                  c.day);
  } else {
    std::snprintf(buf, sizeof buf, "%c%04lld-%02u-%02u", c.year < 0 ? '-' : '+',
                  static_cast<long long>(c.year < 0 ? -c.year : c.year), c.month, c.day);
  }
  return buf;
}

std::optional<int64_t> parse_date(std::string_view text) {
  Cursor c{text};
  auto days = read_date(c);
  if (!days || !c.done()) return std::nullopt;
  return days;
}

std::string format_timestamp(int64_t micros, const TimestampFormat& format) {
  const int64_t days = floor_div(micros, kMicrosPerDay);
  // micros - days * kMicrosPerDay cannot overflow when computed as the floor remainder.
  int64_t in_day = micros % kMicrosPerDay;
  if (in_day < 0) in_day += kMicrosPerDay;
  const int64_t seconds = in_day / kMicrosPerSecond;
  const int64_t fraction = in_day % kMicrosPerSecond;
  std::string out = format_date(days);
  out += format.separator;
  out += two_digits(seconds / 3600) + ":" + two_digits(seconds / 60 % 60) + ":" +
         two_digits(seconds % 60);
  char buf[16];
  if (fraction % kMicrosPerMilli != 0) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(fraction));
    out += buf;
  } else if (fraction != 0 || format.min_fraction_digits > 0) {
    std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(fraction / kMicrosPerMilli));
    out += buf;
  }
  if (format.utc_suffix) out += 'Z';
  return out;
}

std::optional<int64_t> parse_timestamp(std::string_view text, ZonePolicy zones) {
  Cursor c{text};
  auto days = read_date(c);
  if (!days) return std::nullopt;
  int64_t seconds = 0;
  int64_t fraction = 0;
  if (c.eat('T') || c.eat(' ')) {
    auto h = c.digits(1, 2);
    if (!h || !c.eat(':')) return std::nullopt;
    auto m = c.digits(2, 2);
    if (!m) return std::nullopt;
    int64_t s = 0;
    if (c.eat(':')) {
      auto sec = c.digits(2, 2);
      if (!sec) return std::nullopt;
      s = *sec;
      if (c.eat('.')) {
        size_t start = c.pos;
        auto f = c.digits(1, 9);
        if (!f) return std::nullopt;
        size_t n = c.pos - start;
        fraction = *f;
        for (; n < 6; ++n) fraction *= 10;
        for (; n > 6; --n) fraction /= 10;
      }
    }
    if (*h > 23 || *m > 59 || s > 59) return std::nullopt;
    seconds = *h * 3600 + *m * 60 + s;
  }
  int64_t offset_seconds = 0;
  if (!c.done()) {
    if (zones == ZonePolicy::Reject) return std::nullopt;
    auto zone = read_zone(c);
    if (!zone || !c.done()) return std::nullopt;
    offset_seconds = *zone;
  }
  // Exact in __int128, then range-checked: extreme years must not wrap silently.
  __int128 total = static_cast<__int128>(*days) * kMicrosPerDay +
                   static_cast<__int128>(seconds - offset_seconds) * kMicrosPerSecond + fraction;
  if (total < INT64_MIN || total > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(total);
}

}  // namespace skipsound
