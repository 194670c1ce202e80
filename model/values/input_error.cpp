#include "model/values/input_error.h"

#include <algorithm>

#include "model/values/utf8.h"

namespace skipsound {

namespace {

// Longest stretch of source shown on either side of the caret: a 1 MB predicate must not
// produce a 1 MB error message.
constexpr size_t kContextBytes = 60;

// Moves `at` back or forward to the start of a UTF-8 sequence so the excerpt stays valid text.
size_t sequence_start(const std::string& s, size_t at) {
  while (at > 0 && at < s.size() && is_utf8_continuation(s[at])) --at;
  return at;
}

std::string message_with_position(const std::string& message, int column) {
  if (column <= 0) return message;
  return message + " at column " + std::to_string(column);
}

}  // namespace

InputError::InputError(std::string message, int column, std::string source)
    : std::runtime_error(message_with_position(message, column)),
      message_(std::move(message)),
      column_(column),
      source_(std::move(source)) {}

std::string InputError::render() const {
  std::string out = "error: " + message_with_position(message_, column_);
  if (source_.empty() || column_ <= 0) return out;
  const size_t at = std::min(static_cast<size_t>(column_ - 1), source_.size());
  const size_t from = sequence_start(source_, at > kContextBytes ? at - kContextBytes : 0);
  const size_t to = sequence_start(source_, std::min(source_.size(), at + kContextBytes));
  const std::string prefix = from > 0 ? "..." : "";
  const std::string excerpt = source_.substr(from, to - from);
  out += "\n  " + prefix + excerpt + (to < source_.size() ? "..." : "");
  // The caret sits under the character, not the byte: count one column per UTF-8 sequence, and
  // keep tabs so the terminal expands them the same way on both lines.
  std::string pad(prefix.size(), ' ');
  for (size_t i = from; i < at; ++i) {
    if (source_[i] == '\t') pad += '\t';
    else if (!is_utf8_continuation(source_[i])) pad += ' ';
  }
  out += "\n  " + pad + "^";
  return out;
}

}  // namespace skipsound
