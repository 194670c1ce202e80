// Errors in user input (predicates, stats JSON, rows, logs): say where, never crash.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace skipsound {

class InputError : public std::runtime_error {
 public:
  // `column` is 1-based within `source`, 0 when the error has no position.
  InputError(std::string message, int column = 0, std::string source = {});
  int column() const { return column_; }
  const std::string& source() const { return source_; }
  const std::string& message() const { return message_; }
  // "error: <message> at column N\n  <source>\n  ^" (the caret under column N).
  std::string render() const;

 private:
  std::string message_;
  int column_;
  std::string source_;
};

// Runs `parse`; an InputError it throws comes out with `context` (the option, setting or directive
// that held the text) in front of its message, keeping its column and source for the caret.
template <class Parse>
auto with_error_context(const std::string& context, Parse&& parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(context + ": " + e.message(), e.column(), e.source());
  }
}

}  // namespace skipsound
