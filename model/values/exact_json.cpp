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

bool is_number_text_marker(const json& j) {
  return j.is_binary() && j.get_binary().has_subtype() &&
         j.get_binary().subtype() == kNumberTextSubtype;
}

}  // namespace

void throw_as_parse_error(std::size_t position, const json::exception& e) {
  if (const auto* syntax = dynamic_cast<const json::parse_error*>(&e)) throw *syntax;
  throw json::parse_error::create(kSyntaxErrorId, position, e.what(), nullptr);
}

json kept_number(const std::string& text) {
  return json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kNumberTextSubtype);
}

json parse_json(std::string_view text) {
  json result;
  DomSax sax(result);
  json::sax_parse(text.data(), text.data() + text.size(), &sax);
  return result;
}

json parse_json_exact(const std::string& text) {
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

}  // namespace skipsound
