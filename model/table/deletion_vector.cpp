#include "model/table/deletion_vector.h"

#include <algorithm>
#include <iterator>

namespace skipsound {

DeletedRows dv_union(const DeletedRows& a, const DeletedRows& b) {
  DeletedRows out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

DeletedRows dv_intersection(const DeletedRows& a, const DeletedRows& b) {
  DeletedRows out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

DeletedRows dv_minus(const DeletedRows& a, const DeletedRows& b) {
  DeletedRows out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool dv_includes(const DeletedRows& super, const DeletedRows& sub) {
  return std::includes(super.begin(), super.end(), sub.begin(), sub.end());
}

}  // namespace skipsound
