#include "model/table/random_draws.h"

namespace skipsound {

namespace {

bool is_random_call(const Expr& e) {
  return e.kind == ExprKind::Call && (e.function == "rand" || e.function == "random");
}

// SplitMix64's finaliser: every input bit moves every output bit.
uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t path_hash(const std::string& path) {
  uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a
  for (const char c : path) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
  return h;
}

// The call's own seed when it names a literal one, else the transaction's.
uint64_t seed_of(const Expr& call, uint64_t transaction_seed) {
  if (call.children.empty() || call.children[0]->kind != ExprKind::Literal) return transaction_seed;
  const Value& v = call.children[0]->literal;
  return std::holds_alternative<int64_t>(v.data) ? static_cast<uint64_t>(v.as_int()) : transaction_seed;
}

void collect(const Expr& e, uint64_t seed, uint64_t stream, CallValues& out) {
  if (is_random_call(e)) {
    const uint64_t bits = mix(mix(seed_of(e, seed) ^ stream) + out.size());
    out.emplace(&e, Value::floating(TypeKind::Double, static_cast<double>(bits >> 11) * 0x1.0p-53));
    return;
  }
  for (const ExprPtr& c : e.children) collect(*c, seed, stream, out);
}

}  // namespace

bool draws_random(const ExprPtr& condition) {
  if (!condition) return false;
  if (is_random_call(*condition)) return true;
  for (const ExprPtr& c : condition->children) {
    if (draws_random(c)) return true;
  }
  return false;
}

CallValues random_draws(const ExprPtr& condition, uint64_t seed, const std::string& path, uint32_t live_ordinal) {
  CallValues values;
  if (condition) collect(*condition, seed, mix(path_hash(path)) ^ live_ordinal, values);
  return values;
}

}  // namespace skipsound
