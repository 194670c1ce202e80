#include "smt/row_symbols.h"

#include <cstring>
#include <limits>

#include "model/values/utf8.h"

namespace skipsound::smt {

namespace {

z3::expr wrap(z3::context& ctx, Z3_ast a) {
  ctx.check_error();
  return z3::expr(ctx, a);
}

std::string power_of_ten(int exponent) {
  std::string digits(static_cast<size_t>(exponent) + 1, '0');
  digits[0] = '1';
  return digits;
}

std::pair<int64_t, int64_t> int_range(TypeKind k) {
  if (is_integral(k)) return {integral_min(k), integral_max(k)};
  if (k == TypeKind::Date)
    return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}

std::optional<__int128> parse_int128(const std::string& text) {
  if (text.empty()) return std::nullopt;
  __int128 v = 0;
  const bool negative = text[0] == '-';
  for (size_t i = negative ? 1 : 0; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return negative ? -v : v;
}

// The code of a one-character string value: Z3 prints it raw when printable ASCII (a quote
// doubled), else as \u{hex}.
std::optional<unsigned> single_code(const std::string& printed) {
  if (printed == "\"\"") return '"';
  if (printed.size() == 1) return static_cast<unsigned char>(printed[0]);
  if (printed.size() > 4 && printed.compare(0, 3, "\\u{") == 0 && printed.back() == '}')
    return static_cast<unsigned>(std::stoul(printed.substr(3, printed.size() - 4), nullptr, 16));
  return std::nullopt;
}

}  // namespace

RowSymbols::RowSymbols(z3::context& ctx, const Schema& schema, const CodePointMap& alphabet)
    : ctx_(ctx), schema_(schema), alphabet_(alphabet) {}

void RowSymbols::use_sequences(std::set<int> leaves, int capacity) {
  sequence_leaves_ = std::move(leaves);
  sequence_capacity_ = capacity;
}

// 0 <= len <= K; c_i a decodable code before the end and -1 from it on.
RowSymbols::Column RowSymbols::make_sequence_column(const std::string& name, const z3::expr& is_null) {
  const z3::expr length = ctx_.int_const((name + "_length").c_str());
  type_constraints_.push_back(0 <= length && length <= ctx_.int_val(sequence_capacity_));
  std::vector<z3::expr> codes;
  for (int i = 0; i < sequence_capacity_; ++i) {
    const z3::expr c = ctx_.int_const((name + "_code" + std::to_string(i)).c_str());
    const z3::expr inside = ctx_.int_val(i) < length;
    type_constraints_.push_back(z3::implies(inside, ctx_.int_val(alphabet_.lowest()) <= c &&
                                                        c <= ctx_.int_val(alphabet_.top_code())));
    type_constraints_.push_back(z3::implies(!inside, c == ctx_.int_val(kPastTheEnd)));
    codes.push_back(c);
  }
  return {{is_null, length, Domain::String, std::nullopt, CodeSequence{codes, length}}, std::nullopt};
}

std::vector<z3::expr> RowSymbols::short_string_constraints(int max_length) const {
  std::vector<z3::expr> out;
  for (const auto& [leaf, column] : columns_) {
    const SymValue& v = column.value;
    if (v.sequence) out.push_back(v.sequence->length <= ctx_.int_val(max_length));
    else if (v.domain == Domain::String) out.push_back(v.payload.length() <= ctx_.int_val(max_length));
  }
  return out;
}

const SymValue& RowSymbols::column(int leaf) {
  auto it = columns_.find(leaf);
  if (it == columns_.end()) it = columns_.emplace(leaf, make_column(schema_.leaves().at(leaf))).first;
  return it->second.value;
}

RowSymbols::Column RowSymbols::make_column(const Leaf& leaf) {
  const std::string name = path_to_sql(leaf.path);
  const Domain domain = domain_of(leaf.type);
  const z3::expr is_null = ctx_.bool_const((name + "_is_null").c_str());
  const TypeKind kind = leaf.type.kind;
  if (sequence_leaves_.count(leaf.ordinal)) return make_sequence_column(name, is_null);
  if (domain == Domain::Real) {
    const z3::expr unscaled = ctx_.int_const((name + "_unscaled").c_str());
    const z3::expr limit = ctx_.int_val(power_of_ten(leaf.type.precision).c_str());
    type_constraints_.push_back(-limit < unscaled && unscaled < limit);
    const z3::expr value = z3::to_real(unscaled) / ctx_.real_val(power_of_ten(leaf.type.scale).c_str());
    return {{is_null, value, domain}, unscaled};
  }
  if (domain == Domain::Float && kind == TypeKind::Float) {
    const z3::expr narrow = ctx_.constant(name.c_str(), ctx_.fpa_sort<32>());
    const z3::expr widened = wrap(ctx_, Z3_mk_fpa_to_fp_float(ctx_, Z3_mk_fpa_rne(ctx_), narrow,
                                                              ctx_.fpa_sort<64>()));
    return {{is_null, widened, domain}, narrow};
  }
  const z3::expr payload = ctx_.constant(name.c_str(), payload_sort(ctx_, domain));
  if (domain == Domain::Int) {
    const auto [low, high] = int_range(kind);
    type_constraints_.push_back(ctx_.int_val(low) <= payload && payload <= ctx_.int_val(high));
  } else if (domain == Domain::String) {
    const bool binary = kind == TypeKind::Binary;
    const unsigned low = 0;
    const unsigned high = binary ? 0xFF : alphabet_.top_code();
    alphabet_constraints_.push_back(
        z3::in_re(payload, z3::star(z3::range(encode_code(ctx_, low), encode_code(ctx_, high)))));
  }
  return {{is_null, payload, domain}, std::nullopt};
}

std::optional<std::vector<unsigned>> RowSymbols::string_codes(const z3::model& model,
                                                             const z3::expr& value) const {
  const int64_t length = model.eval(value.length(), true).get_numeral_int64();
  std::vector<unsigned> codes;
  for (int64_t i = 0; i < length; ++i) {
    const z3::expr one = model.eval(value.extract(ctx_.int_val(i), ctx_.int_val(1)), true);
    const auto code = single_code(Z3_get_string(ctx_, one));
    if (!code) return std::nullopt;
    codes.push_back(*code);
  }
  return codes;
}

std::vector<unsigned> RowSymbols::sequence_codes(const z3::model& model, const CodeSequence& sequence) {
  const int64_t length = model.eval(sequence.length, true).get_numeral_int64();
  std::vector<unsigned> codes;
  for (int64_t i = 0; i < length; ++i)
    codes.push_back(static_cast<unsigned>(model.eval(sequence.codes[i], true).get_numeral_int64()));
  return codes;
}

std::optional<Value> RowSymbols::decode_value(const z3::model& model, const SymValue& value, const DataType& type,
                                              const std::string& name, std::string& problem) const {
  if (model.eval(value.is_null, true).is_true()) return Value::null(type);
  return decode_value(model, Leaf{-1, {name}, {name}, type, true}, Column{value, std::nullopt}, problem);
}

std::optional<Row> RowSymbols::decode(const z3::model& model, std::string& problem) const {
  Row row(schema_.leaves().size(), Value::null());
  for (const auto& [leaf, column] : columns_) {
    const Leaf& l = schema_.leaves().at(leaf);
    row[leaf] = Value::null(l.type);
    if (model.eval(column.value.is_null, true).is_true()) continue;
    std::optional<Value> v = decode_value(model, l, column, problem);
    if (!v) return std::nullopt;
    row[leaf] = std::move(*v);
  }
  return row;
}

std::optional<Value> RowSymbols::decode_value(const z3::model& model, const Leaf& leaf,
                                              const Column& c, std::string& problem) const {
  const TypeKind kind = leaf.type.kind;
  const z3::expr payload = model.eval(c.value.payload, true);
  switch (c.value.domain) {
    case Domain::Bool: return Value::boolean(payload.is_true());
    case Domain::Int: return Value::integral(kind, payload.get_numeral_int64());
    case Domain::Real: {
      const auto unscaled = parse_int128(model.eval(*c.raw, true).get_decimal_string(0));
      if (!unscaled) break;
      return Value::decimal(Decimal{*unscaled, leaf.type.scale}, leaf.type.precision);
    }
    case Domain::Float: {
      const z3::expr f = kind == TypeKind::Float ? *c.raw : c.value.payload;
      if (model.eval(fp_is_nan(f), true).is_true())
        return Value::floating(kind, std::numeric_limits<double>::quiet_NaN());
      const z3::expr bits = model.eval(wrap(ctx_, Z3_mk_fpa_to_ieee_bv(ctx_, f)), true);
      if (kind == TypeKind::Float) {
        const uint32_t raw = static_cast<uint32_t>(bits.get_numeral_uint64());
        float narrow;
        std::memcpy(&narrow, &raw, sizeof narrow);
        return Value::floating(kind, narrow);
      }
      const uint64_t raw = bits.get_numeral_uint64();
      double wide;
      std::memcpy(&wide, &raw, sizeof wide);
      return Value::floating(kind, wide);
    }
    case Domain::String: {
      const auto codes = c.value.sequence ? sequence_codes(model, *c.value.sequence) : string_codes(model, payload);
      if (!codes) break;
      if (kind == TypeKind::Binary) {
        std::string bytes;
        for (const unsigned code : *codes) {
          if (code > 0xFF) {
            problem = "a byte above 255 in " + path_to_sql(leaf.path);
            return std::nullopt;
          }
          bytes += static_cast<char>(code);
        }
        return Value::binary(bytes);
      }
      std::vector<char32_t> code_points;
      for (const unsigned code : *codes) {
        const auto cp = alphabet_.decode(code);
        if (!cp) break;
        code_points.push_back(*cp);
      }
      if (code_points.size() != codes->size()) break;
      return Value::string(encode_utf8(code_points));
    }
    case Domain::Opaque: break;
  }
  problem = "cannot decode the model's value of " + path_to_sql(leaf.path);
  return std::nullopt;
}

}  // namespace skipsound::smt
