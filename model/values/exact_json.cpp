#include "model/values/exact_json.h"

namespace skipsound {

namespace {

using nlohmann::json;

// A binary value never comes out of JSON text, so a tagged one can carry a number's text.
constexpr std::uint8_t kNumberTextSubtype = 0x4E;

class ExactNumberSax : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  using nlohmann::detail::json_sax_dom_parser<json>::json_sax_dom_parser;

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

json kept_number(const std::string& text) {
  return json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kNumberTextSubtype);
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
