// Focused tests for mutants of model/log/ that short gate runs left alive: action fields and
// action types that no fixture or generated commit exercised.
#include <optional>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "model/log/actions.h"
#include "model/values/input_error.h"

namespace skipsound {
namespace {

std::optional<Action> parse(const std::string& line) { return parse_action(line, "00.json", 1); }

// Delta's PROTOCOL.md "Add File": partitionValues is required by the protocol, but a reader that
// meets an add without it (or without size) reads an unpartitioned file of unknown size, 0 bytes.
TEST(ActionGaps, AnAddWithoutPartitionValuesOrSizeReadsEmptyAndZero) {
  const auto action = parse(R"({"add":{"path":"f.parquet","modificationTime":1,"dataChange":true}})");
  ASSERT_TRUE(action);
  const AddFile& add = std::get<AddFile>(*action);
  EXPECT_EQ(add.path, "f.parquet");
  EXPECT_TRUE(add.partition_values.empty());
  EXPECT_EQ(add.size, 0);
  EXPECT_EQ(add.modification_time, 1);
}

// Delta's PROTOCOL.md "Domain Metadata": removed=true is the domain's tombstone; absent means false.
TEST(ActionGaps, DomainMetadataReadsItsRemovedFlag) {
  const auto removed = parse(R"({"domainMetadata":{"domain":"d","configuration":"{}","removed":true}})");
  ASSERT_TRUE(removed);
  EXPECT_EQ(std::get<DomainMetadata>(*removed), (DomainMetadata{"d", "{}", true}));
  const auto kept = parse(R"({"domainMetadata":{"domain":"d","configuration":"{}"}})");
  ASSERT_TRUE(kept);
  EXPECT_FALSE(std::get<DomainMetadata>(*kept).removed);
}

// Delta's PROTOCOL.md "Add CDC File": cdc lines are read (so a commit round-trips); an action type
// skipsound does not know is ignored, as Delta readers ignore what they do not know (actions.h).
TEST(ActionGaps, CdcLinesAreReadAndUnknownActionTypesIgnored) {
  const std::string line = R"({"cdc":{"path":"_change_data/c.parquet","partitionValues":{"p":"1"},"size":7,"dataChange":false}})";
  const auto cdc = parse(line);
  ASSERT_TRUE(cdc);
  ASSERT_TRUE(std::holds_alternative<AddCdcFile>(*cdc));
  EXPECT_EQ(std::get<AddCdcFile>(*cdc), (AddCdcFile{"_change_data/c.parquet", {{"p", "1"}}, 7, false}));
  EXPECT_EQ(action_to_json_line(*cdc), line);
  EXPECT_FALSE(parse(R"({"sidecar":{"path":"s.parquet","sizeInBytes":1}})"));
  EXPECT_FALSE(parse(R"({"checkpointMetadata":{"version":3}})"));
}

// Delta's PROTOCOL.md "Commit Provenance Information": isBlindAppend is written when known and left
// out when not (skipsound reads an absent flag as not blind: docs/semantics.md §7.2).
TEST(ActionGaps, CommitInfoWritesIsBlindAppendOnlyWhenKnown) {
  CommitInfo info;
  info.operation = "WRITE";
  info.is_blind_append = true;
  EXPECT_EQ(action_to_json_line(info), R"({"commitInfo":{"operation":"WRITE","operationParameters":{},"isBlindAppend":true}})");
  info.is_blind_append = false;
  EXPECT_EQ(action_to_json_line(info), R"({"commitInfo":{"operation":"WRITE","operationParameters":{},"isBlindAppend":false}})");
  info.is_blind_append.reset();
  EXPECT_EQ(action_to_json_line(info), R"({"commitInfo":{"operation":"WRITE","operationParameters":{}}})");
}

// Delta's PROTOCOL.md "Remove File": extendedFileMetadata marks a remove that carries the file's
// partitionValues (and size); a remove without them writes neither.
TEST(ActionGaps, ARemoveWithoutPartitionValuesWritesNoExtendedFileMetadata) {
  RemoveFile remove;
  remove.path = "f.parquet";
  EXPECT_EQ(action_to_json_line(remove), R"({"remove":{"path":"f.parquet","dataChange":true}})");
  remove.partition_values = PartitionValues{{"p", std::nullopt}};
  EXPECT_EQ(action_to_json_line(remove),
            R"({"remove":{"path":"f.parquet","dataChange":true,"extendedFileMetadata":true,"partitionValues":{"p":null}}})");
}

}  // namespace
}  // namespace skipsound
