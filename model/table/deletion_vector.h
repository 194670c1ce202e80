// Deletion vectors as sets of physical row positions (docs/semantics.md §10 "Model prerequisites"):
// a file's rows sit at fixed positions 0..numRecords-1 and a DV names the positions deleted. The
// set operations below are what the Case 2 union, the Case 1b removed rows and the oracle's
// rebase are written in; every DeletedRows they take and give is sorted and distinct.
#pragma once
#include <cstdint>
#include <vector>

namespace skipsound {

// The deletion vector's content: sorted, distinct physical row positions. Empty = no DV.
using DeletedRows = std::vector<uint32_t>;

DeletedRows dv_union(const DeletedRows& a, const DeletedRows& b);
DeletedRows dv_intersection(const DeletedRows& a, const DeletedRows& b);
DeletedRows dv_minus(const DeletedRows& a, const DeletedRows& b);  // positions in a, not in b
bool dv_includes(const DeletedRows& super, const DeletedRows& sub);  // sub ⊆ super

}  // namespace skipsound
