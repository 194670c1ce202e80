#include "model/stats/stats_widening.h"

#include <gtest/gtest.h>

namespace skipsound {
namespace {

Value i(int64_t v) { return Value::integral(TypeKind::Int, v); }

// numRecords 10 and three columns: null counts 8, 0 and 3, with bounds on the second.
FileStats ten_rows(std::optional<bool> tight) {
  FileStats s;
  s.num_records = 10;
  s.tight_bounds = tight;
  s.column_mut(0).null_count = 8;
  s.column_mut(1) = ColumnStats{i(1), i(9), 0};
  s.column_mut(2).null_count = 3;
  return s;
}

TEST(StatsWidening, KeepsBoundsAndRecordsAndMarksWide) {
  const FileStats wide = widen_for_deletion_vector(ten_rows(true), 0);
  EXPECT_EQ(wide.tight_bounds, false);
  EXPECT_EQ(wide.num_records, 10);
  EXPECT_EQ(wide.column(1).min, i(1));
  EXPECT_EQ(wide.column(1).max, i(9));
}

TEST(StatsWidening, AllNullUnderThePreviousDvBecomesNumRecords) {
  // Previous DV deleted 2 rows: 8 live rows, all null in column 0.
  const FileStats wide = widen_for_deletion_vector(ten_rows(true), 2);
  EXPECT_EQ(wide.column(0).null_count, 10);
  EXPECT_EQ(wide.column(1).null_count, 0);
  EXPECT_EQ(wide.column(2).null_count, 3);
}

TEST(StatsWidening, NoPreviousDvComparesWithNumRecords) {
  // Without a previous DV the live count is 10: a count of 8 is partial and stays.
  const FileStats wide = widen_for_deletion_vector(ten_rows(true), 0);
  EXPECT_EQ(wide.column(0).null_count, 8);
  EXPECT_EQ(wide.column(2).null_count, 3);
}

TEST(StatsWidening, AlreadyWideOrUnknownTightnessKeepsNullCounts) {
  EXPECT_EQ(widen_for_deletion_vector(ten_rows(false), 2).column(0).null_count, 8);
  const FileStats unknown = widen_for_deletion_vector(ten_rows(std::nullopt), 2);
  EXPECT_EQ(unknown.column(0).null_count, 8);
  EXPECT_EQ(unknown.tight_bounds, false);
}

TEST(StatsWidening, MissingNumRecordsOnlyMarksWide) {
  FileStats s = ten_rows(true);
  s.num_records.reset();
  const FileStats wide = widen_for_deletion_vector(s, 2);
  EXPECT_EQ(wide.tight_bounds, false);
  EXPECT_EQ(wide.column(0).null_count, 8);
}

}  // namespace
}  // namespace skipsound
