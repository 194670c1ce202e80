#include "proofs/rules/predicate_template.h"

namespace skipsound {

namespace {

ExprPtr substitute(const ExprPtr& e, const std::vector<LiteralSlot>& slots, const std::vector<Value>& values) {
  if (e->kind == ExprKind::Literal && !e->literal.is_null()) {
    for (size_t i = 0; i < slots.size(); ++i) {
      if (e->literal == slots[i].sentinel) return make_literal(values.at(i));
      if (slots[i].shape == SlotShape::LikePrefix &&
          e->literal == Value::string(slots[i].sentinel.as_string() + "%"))
        return make_literal(Value::string(values.at(i).as_string() + "%"));
    }
    return e;
  }
  if (e->children.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (ExprPtr& child : copy->children) child = substitute(child, slots, values);
  return copy;
}

}  // namespace

ExprPtr instantiate(const PredicateTemplate& t, const std::vector<Value>& literals) {
  return substitute(t.predicate, t.slots, literals);
}

}  // namespace skipsound
