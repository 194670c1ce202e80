// Schemas for the fuzz targets are built field by field.
#pragma once
#include <string>
#include <utility>

#include "model/sql/schema.h"

namespace skipsound::fuzz {

inline StructField field(std::string name, DataType type) {
  StructField f;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

}  // namespace skipsound::fuzz
