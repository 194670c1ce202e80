// The shape each explorer category exists to produce (proofs/explorer/explorer.cpp's shapes_of
// names them): the explorer's and the gate's tests both check that every category reaches it.
#pragma once
#include "generators/world_gen.h"

namespace skipsound::test {

inline const char* category_shape(generators::WorldCategory c) {
  using generators::WorldCategory;
  switch (c) {
    case WorldCategory::Disjoint: return "all-committed";
    case WorldCategory::Overlapping: return "shared-row";
    case WorldCategory::MissingStats: return "missing-stats";
    case WorldCategory::WideDv: return "wide-dv-add";
    case WorldCategory::Partitioned: return "partitioned";
    case WorldCategory::WholeTable: return "whole-table-read";
    case WorldCategory::EmptyReads: return "empty-reads";
    case WorldCategory::ValueMoving: return "value-moving";
    case WorldCategory::Mixed: return "multi-read";
    case WorldCategory::SameFileDisjoint: return "same-file-disjoint";
    case WorldCategory::SameFileOverlap: return "same-file-overlap";
    case WorldCategory::ImageFiles: return "image-file";
    case WorldCategory::NoDataChange: return "no-data-change";
    case WorldCategory::Restore: return "dv-shrinks";
  }
  return "";
}

}  // namespace skipsound::test
