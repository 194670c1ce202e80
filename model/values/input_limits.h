// Bounds on untrusted input (docs/cli.md, "Bad input" and "Resource limits"): each command refuses an input
// beyond them with an InputError (exit 2) rather than let memory or time grow with it. The
// commands' --help states them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace skipsound {

// Longest predicate text the parser reads: its IR, the oracle's query and every tree walk grow
// with it.
inline constexpr size_t kMaxPredicateBytes = 1u << 20;
// Any one file skipsound reads whole: a schema, a rows or decisions file, a scenario, a commit.
inline constexpr std::uintmax_t kMaxInputFileBytes = 64u << 20;
// All commits of one Delta log together.
inline constexpr std::uintmax_t kMaxLogBytes = 256u << 20;
// JSON commit files in one _delta_log folder.
inline constexpr size_t kMaxLogCommits = 100'000;
// Live files of one version of a Delta log.
inline constexpr size_t kMaxLiveFiles = 100'000;
// A scenario: rows its `file` lines, INSERTs and MERGEs write together; its transactions; its
// operations (every transaction re-runs on the initial table and is checked against each winner).
// Rewriting a row costs about 1.1 KB and 11 µs, so 100,000 rows keep one UPDATE of all of them
// near 1 s and 120 MB; the corpus writes at most 1,100 rows per range.
inline constexpr size_t kMaxScenarioRows = 100'000;
inline constexpr size_t kMaxScenarioTransactions = 64;
inline constexpr size_t kMaxScenarioOperations = 1'024;

// "64 MiB", for messages and --help.
std::string byte_size_text(std::uintmax_t bytes);

// The bytes of a file (or pipe) of at most `limit` bytes. InputError "cannot read P" when it is
// missing, a folder or unreadable; "P is N bytes, more than the limit of 64 MiB" when too large.
std::string read_bounded_file(const std::filesystem::path& path, std::uintmax_t limit = kMaxInputFileBytes);

}  // namespace skipsound
