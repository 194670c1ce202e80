#include "model/values/exact_json.h"

#include <string>

namespace skipsound {

namespace {

using nlohmann::json;

// nlohmann's id for a syntax error; a document too deep to read, or a number too large to read,
// is refused the same way.
constexpr int kSyntaxErrorId = 101;

// A binary value never comes out of JSON text, so a tagged one can carry a number's text.
constexpr std::uint8_t kNumberTextSubtype = 0x4E;

// Builds the DOM as Base does, refusing nesting deeper than kMaxJsonDepth before it gets there.
template <typename Base>
class DepthLimitedSax : public Base {
 public:
  using Base::Base;
  bool start_object(std::size_t elements) { return enter() && Base::start_object(elements); }
  bool start_array(std::size_t elements) { return enter() && Base::start_array(elements); }
  bool end_object() { return leave() && Base::end_object(); }
  bool end_array() { return leave() && Base::end_array(); }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception& e) {
    throw_as_parse_error(position, e);
  }

 private:
  bool enter() {
    // A parse error like any other, so every reader reports it with its own location.
    if (++depth_ > kMaxJsonDepth) {
      throw json::parse_error::create(kSyntaxErrorId, 0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", nullptr);
    }
    return true;
  }
  bool leave() { return --depth_ >= 0; }
  int depth_ = 0;
};

using DomSax = DepthLimitedSax<nlohmann::detail::json_sax_dom_parser<json>>;

class ExactNumberSax : public DomSax {
 public:
  using DomSax::DomSax;

  bool number_float(double /*value*/, const std::string& text) {
    json kept = kept_number(text);
    return binary(kept.get_binary());
  }
};

template <class Json>
bool is_number_text_marker(const Json& j) {
  return j.is_binary() && j.get_binary().has_subtype() &&
         j.get_binary().subtype() == kNumberTextSubtype;
}

struct DumpStyle {
  int indent;
  bool ensure_ascii;
  json::error_handler_t errors;
};

void break_line(const DumpStyle& style, int depth, std::string& out) {
  if (style.indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(depth) * static_cast<size_t>(style.indent), ' ');
}

// nlohmann's serializer, walked by hand so that a kept number can be written as its text.
template <class Json>
void write_json(const Json& j, const DumpStyle& style, int depth, std::string& out) {
  if (is_number_text_marker(j)) {
    const auto& text = j.get_binary();
    out.append(text.begin(), text.end());
    return;
  }
  if (!j.is_object() && !j.is_array()) {
    out += j.dump(-1, ' ', style.ensure_ascii, style.errors);
    return;
  }
  const bool object = j.is_object();
  out += object ? '{' : '[';
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ',';
    break_line(style, depth + 1, out);
    if (object) {
      out += Json(it.key()).dump(-1, ' ', style.ensure_ascii, style.errors);
      out += style.indent < 0 ? ":" : ": ";
    }
    write_json(*it, style, depth + 1, out);
  }
  if (!j.empty()) break_line(style, depth, out);
  out += object ? '}' : ']';
}

template <class Json>
std::string dump_any(const Json& j, int indent, bool ensure_ascii, json::error_handler_t errors) {
  std::string out;
  write_json(j, DumpStyle{indent, ensure_ascii, errors}, 0, out);
  return out;
}

}  // namespace

void throw_as_parse_error(std::size_t position, const json::exception& e) {
  if (const auto* syntax = dynamic_cast<const json::parse_error*>(&e)) throw *syntax;
  throw json::parse_error::create(kSyntaxErrorId, position, e.what(), nullptr);
}

json kept_number(const std::string& text) {
  return json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kNumberTextSubtype);
}

json parse_json_exact(std::string_view text) {
  json result;
  ExactNumberSax sax(result);
  json::sax_parse(text.data(), text.data() + text.size(), &sax);  // pointer input lexes faster
  return result;
}

std::optional<std::string> number_text(const json& j) {
  if (is_number_text_marker(j)) {
    const auto& bytes = j.get_binary();
    return std::string(bytes.begin(), bytes.end());
  }
  if (!j.is_number()) return std::nullopt;
  return j.dump();  // integers exactly; doubles in shortest round-trip form
}

bool is_json_number(const json& j) { return j.is_number() || is_number_text_marker(j); }

std::string dump_json(const json& j, int indent, bool ensure_ascii, json::error_handler_t errors) {
  return dump_any(j, indent, ensure_ascii, errors);
}

std::string dump_json(const nlohmann::ordered_json& j, int indent, bool ensure_ascii, json::error_handler_t errors) {
  return dump_any(j, indent, ensure_ascii, errors);
}

}  // namespace skipsound
