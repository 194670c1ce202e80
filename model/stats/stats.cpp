#include "model/stats/stats.h"

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/values/exact_json.h"
#include "model/sql/row.h"

namespace skipsound {

namespace {

// Whether a timestamp's text carries a zone offset after its time: coverage bookkeeping only.
bool has_zone_offset(const std::string& text) {
  const size_t time = text.find_first_of("T ");                                      // mutation: off (coverage bookkeeping)
  return time != std::string::npos && text.find_first_of("+-", time) != std::string::npos;  // mutation: off (coverage bookkeeping)
}

using nlohmann::json;

enum class StatKind { Min, Max, NullCount };

const char* stat_key(StatKind k) {
  switch (k) {
    case StatKind::Min: return "minValues";
    case StatKind::Max: return "maxValues";
    case StatKind::NullCount: return "nullCount";
  }
  return "";
}

const std::string& key_of(const StructField& f, StatsNaming naming) {
  return naming == StatsNaming::Physical && !f.physical_name.empty() ? f.physical_name : f.name;
}

// The keys a reader looks stats up by: physical names under column mapping (docs/semantics.md §4.7),
// unless the stats-by-logical-name mutant reads them by the names the columns have now.
StatsNaming lookup_naming(StatsNaming naming) {
  return fault_active(Mutant::StatsByLogicalName) ? StatsNaming::Logical : naming;
}

// The text of a stat as a faulty reader of the input-path mutants sees it (docs/semantics.md §8).
// decimal-stats-unscaled: the text's digits become the unscaled value at the column's scale, so
// "1.5" in decimal(5,2) reads 0.15. decimal-stats-as-double: a decimal written as a JSON number
// goes through the nearest double, so 123456789012345678 reads 123456789012345680.
// timestamp-offset-as-utc: "10:00:00.000-08:00" reads 10:00 UTC.
json misread_stat(const json& j, const DataType& type) {
  if (fault_active(Mutant::DecimalStatsAsDouble) && type.kind == TypeKind::Decimal && is_json_number(j)) {
    return json(std::strtod(number_text(j)->c_str(), nullptr)).dump();
  }
  if (fault_active(Mutant::DecimalStatsUnscaled) && type.kind == TypeKind::Decimal) {
    const std::optional<std::string> text = j.is_string() ? j.get<std::string>() : number_text(j);
    if (!text) return j;
    try {
      Decimal d = parse_decimal(*text);
      d.scale = type.scale;
      return decimal_to_string(d);
    } catch (const std::invalid_argument&) {
      return j;
    }
  }
  if (fault_active(Mutant::TimestampOffsetAsUtc) && type.kind == TypeKind::Timestamp && j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    const size_t time = text.find_first_of("T ");
    const size_t zone = text.find_first_of("+-Z", time == std::string::npos ? text.size() : time);
    if (zone != std::string::npos) return text.substr(0, zone) + "Z";
  }
  return j;
}

[[noreturn]] void wrong_type(const std::string& path, const std::string& expected) {
  throw InputError("stats: " + path + ": expected " + expected);
}

// A non-negative int64 count, or nullopt for anything else.
std::optional<int64_t> count_of(const json& j) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (!j.is_number_integer() || j.get<int64_t>() < 0) return std::nullopt;
  return j.get<int64_t>();
}

// Number of schema leaves under a type: one unless it is a struct.
int leaf_count(const DataType& t) {
  if (t.kind != TypeKind::Struct) return 1;
  int n = 0;
  for (const StructField& f : t.fields) n += leaf_count(f.type);
  return n;
}

// Reads stats JSON as a stream of SAX events straight into FileStats: the text parser drives it
// without building a DOM, and stats_from_json replays a DOM through it, so both share every rule.
// Keys are matched against the schema level by level; leaf ordinals line up with
// Schema::leaves(). Null values read as absent; unknown keys and their contents are skipped.
class StatsSax {
 public:
  StatsSax(const Schema& schema, StatsNaming naming)
      : schema_(schema), naming_(naming), lookup_(lookup_naming(naming)) {
    stats_.columns.reserve(schema.leaves().size());
  }

  FileStats take() { return std::move(stats_); }

  // Every scalar, whether from the parser or a DOM.
  bool scalar(const json& j) {
    if (frames_.empty()) throw InputError("stats: expected a JSON object");
    if (frames_.back().role == Role::Skip || j.is_null()) return true;
    switch (next_.what) {
      case Next::NumRecords:
        stats_.num_records = count_of(j);
        if (!stats_.num_records) wrong_type("numRecords", "a non-negative integer");
        break;
      case Next::TightBounds:
        if (!j.is_boolean()) wrong_type("tightBounds", "true or false");
        stats_.tight_bounds = j.get<bool>();
        break;
      case Next::Leaf: read_leaf(j); break;
      case Next::Ignored: break;
      default: not_a_container();
    }
    return true;
  }

  bool start_object(std::size_t = 0) {
    if (frames_.empty()) return push(Role::Top, nullptr, 0);
    if (frames_.back().role == Role::Skip) return push(Role::Skip, nullptr, 0);
    switch (next_.what) {
      case Next::Section: return push(Role::Section, &schema_.fields(), 0);
      case Next::Struct: return push(Role::Struct, &next_.field->type.fields, next_.ordinal);
      case Next::Ignored: return push(Role::Skip, nullptr, 0);
      default: return not_a_scalar();
    }
  }

  bool start_array(std::size_t = 0) {
    if (frames_.empty()) throw InputError("stats: expected a JSON object");
    if (frames_.back().role == Role::Skip || next_.what == Next::Ignored) {
      return push(Role::Skip, nullptr, 0);
    }
    return next_.what == Next::Section || next_.what == Next::Struct ? not_a_container()
                                                                      : not_a_scalar();
  }

  bool end_object() { return pop(); }
  bool end_array() { return pop(); }

  bool key(std::string& k) {
    Frame& frame = frames_.back();
    next_ = Next{};
    if (frame.role == Role::Top) {
      if (k == "numRecords") next_.what = Next::NumRecords;
      if (k == "tightBounds") next_.what = Next::TightBounds;
      for (StatKind kind : {StatKind::Min, StatKind::Max, StatKind::NullCount}) {
        if (k == stat_key(kind)) {
          next_.what = Next::Section;
          kind_ = kind;
        }
      }
    } else if (frame.role != Role::Skip) {
      find_field(frame, k);
    }
    return true;
  }

  // The parser's events.
  bool null() { return scalar(json()); }
  bool boolean(bool b) { return scalar(json(b)); }
  bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
  bool number_float(json::number_float_t, const std::string& text) {
    return scalar(kept_number(text));
  }
  bool string(std::string& s) { return scalar(json(std::move(s))); }
  bool binary(json::binary_t& b) { return scalar(json::binary(std::move(b))); }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception& e) {
    throw_as_parse_error(position, e);
  }

 private:
  enum class Role { Top, Section, Struct, Skip };

  // One open object or array. For a section or struct: its fields, the ordinal of its first
  // leaf, and where the last key matched (keys usually come in schema order).
  struct Frame {
    Role role;
    const std::vector<StructField>* fields;
    int first_ordinal;
    const std::string* name = nullptr;  // a struct's key, for error paths
    size_t cursor = 0;
    int cursor_ordinal = 0;
  };

  // What the value after the last key is.
  struct Next {
    enum What { Ignored, NumRecords, TightBounds, Section, Leaf, Struct } what = Ignored;
    const StructField* field = nullptr;
    int ordinal = 0;
  };

  bool push(Role role, const std::vector<StructField>* fields, int first_ordinal) {
    const std::string* name = role == Role::Struct ? &key_of(*next_.field, naming_) : nullptr;
    frames_.push_back(Frame{role, fields, first_ordinal, name, 0, first_ordinal});
    next_ = Next{};
    return true;
  }

  bool pop() {
    frames_.pop_back();
    next_ = Next{};
    return true;
  }

  // Searches from where the last key matched, wrapping around once. An unknown key (a dropped
  // column, another writer's extra field) leaves the cursor where it was: the ordinal must only
  // move with a match, or every later key of the object would land on the wrong column.
  void find_field(Frame& frame, const std::string& k) {
    const std::vector<StructField>& fields = *frame.fields;
    int ordinal = frame.cursor_ordinal;
    for (size_t i = frame.cursor, n = 0; n < fields.size(); ++n, ++i) {
      if (i == fields.size()) {
        i = 0;
        ordinal = frame.first_ordinal;
      }
      const StructField& f = fields[i];
      if (key_of(f, lookup_) == k) {
        next_ = Next{f.type.kind == TypeKind::Struct ? Next::Struct : Next::Leaf, &f, ordinal};
        // Writers never record min/max for boolean, binary, arrays or maps (docs/semantics.md §4.2).
        if (next_.what == Next::Leaf && kind_ != StatKind::NullCount && !has_min_max(f.type.kind)) {
          next_.what = Next::Ignored;
        }
        frame.cursor = i + 1;
        frame.cursor_ordinal = ordinal + leaf_count(f.type);
        return;
      }
      ordinal += leaf_count(f.type);
    }
    coverage::hit(coverage::Probe::ReaderUnknownKey);
  }

  // The JSON path of the value after the last key, built only for an error message.
  std::string path() const {
    std::string out = stat_key(kind_);
    for (const Frame& frame : frames_) {
      if (frame.name != nullptr) out += "." + *frame.name;
    }
    if (next_.field != nullptr) out += "." + key_of(*next_.field, naming_);
    return out;
  }

  bool not_a_container() {
    if (next_.what == Next::Section) wrong_type(stat_key(kind_), "an object");
    wrong_type(path(), "an object for a struct");
  }

  bool not_a_scalar() {
    if (next_.what == Next::NumRecords) wrong_type("numRecords", "a non-negative integer");
    if (next_.what == Next::TightBounds) wrong_type("tightBounds", "true or false");
    wrong_type(path(), "a single value");
  }

  void read_leaf(const json& j) {
    const int ordinal = next_.ordinal;
    if (kind_ == StatKind::NullCount) {
      const auto count = count_of(j);
      if (!count) wrong_type(path(), "a non-negative integer");
      stats_.column_mut(ordinal).null_count = count;
      return;
    }
    note_reader_path(j, next_.field->type);
    Value v;
    try {
      v = value_from_json(misread_stat(j, next_.field->type), next_.field->type);
    } catch (const InputError& e) {
      throw InputError("stats: " + path() + ": " + e.message());
    }
    ColumnStats& c = stats_.column_mut(ordinal);
    (kind_ == StatKind::Min ? c.min : c.max) = std::move(v);
  }

  // The reader paths of docs/semantics.md §4.7 a stat's text takes.
  static void note_reader_path(const json& j, const DataType& type) {
    using coverage::Probe;
    if (type.kind == TypeKind::Decimal) coverage::hit(j.is_string() ? Probe::ReaderDecimalString : Probe::ReaderDecimalNumber);
    if (is_floating(type.kind) && j.is_string()) coverage::hit(Probe::ReaderSpecialFloat);
    if (type.kind == TypeKind::Timestamp && j.is_string() && has_zone_offset(j.get_ref<const std::string&>())) coverage::hit(Probe::ReaderTimestampOffset);
  }

  FileStats stats_;
  const Schema& schema_;
  StatsNaming naming_;
  StatsNaming lookup_;  // naming_, or another under a mutant
  std::vector<Frame> frames_;
  StatKind kind_ = StatKind::Min;
  Next next_;
};

// Feeds a DOM to the reader as the parser would.
void replay(const json& j, StatsSax& sax) {
  if (j.is_object()) {
    sax.start_object();
    for (const auto& [k, v] : j.items()) {
      std::string key = k;
      sax.key(key);
      replay(v, sax);
    }
    sax.end_object();
  } else if (j.is_array()) {
    sax.start_array();
    for (const json& v : j) replay(v, sax);
    sax.end_array();
  } else {
    sax.scalar(j);
  }
}

// The slot for a leaf, creating the struct objects on its path.
json* leaf_slot(json& parent, const ColumnPath& names) {
  json* at = &parent;
  for (const std::string& name : names) at = &(*at)[name];
  return at;
}

}  // namespace

const ColumnStats& FileStats::column(int leaf) const {
  static const ColumnStats empty;
  return leaf >= 0 && leaf < static_cast<int>(columns.size()) ? columns[leaf] : empty;
}

ColumnStats& FileStats::column_mut(int leaf) {
  if (leaf >= static_cast<int>(columns.size())) columns.resize(leaf + 1);
  return columns[leaf];
}

FileStats stats_from_json(const json& j, const Schema& schema, StatsNaming naming) {
  StatsSax reader(schema, naming);
  replay(j, reader);
  return reader.take();
}

FileStats stats_from_json_text(const std::string& text, const Schema& schema, StatsNaming naming) {
  StatsSax reader(schema, naming);
  coverage::hit(coverage::Probe::ReaderStatsText);
  if (naming == StatsNaming::Physical) coverage::hit(coverage::Probe::ReaderPhysicalNames);
  try {
    json::sax_parse(text.data(), text.data() + text.size(), &reader);  // pointer input lexes faster
  } catch (const json::parse_error& e) {
    throw InputError(std::string("stats: not valid JSON: ") + e.what(),
                     static_cast<int>(std::min<size_t>(e.byte, text.size() + 1)), text);
  }
  return reader.take();
}

json stats_to_json(const FileStats& s, const Schema& schema, StatsNaming naming) {
  json out = json::object();
  if (s.num_records) out["numRecords"] = *s.num_records;
  json mins = json::object(), maxes = json::object(), nulls = json::object();
  for (const Leaf& leaf : schema.leaves()) {
    const ColumnStats& c = s.column(leaf.ordinal);
    const ColumnPath& names = naming == StatsNaming::Physical ? leaf.physical_path : leaf.path;
    if (c.min) *leaf_slot(mins, names) = value_to_json(*c.min);
    if (c.max) *leaf_slot(maxes, names) = value_to_json(*c.max);
    if (c.null_count) *leaf_slot(nulls, names) = *c.null_count;
  }
  if (!mins.empty()) out["minValues"] = std::move(mins);
  if (!maxes.empty()) out["maxValues"] = std::move(maxes);
  if (!nulls.empty()) out["nullCount"] = std::move(nulls);
  if (s.tight_bounds) out["tightBounds"] = *s.tight_bounds;
  return out;
}

}  // namespace skipsound
