// Containing a solver crash to the query that caused it. A query is first
// run in a forked copy of the process; only when that copy ends normally is it run again here.
// Z3 under a resource limit and without a timer is deterministic, so the copy and the process
// behave alike, and a query that kills the copy (a SIGSEGV inside libz3) costs that query, which
// the caller reports as UNKNOWN with the signal, instead of the run.
//
// fork() copies only the calling thread: a lock another thread holds at that moment stays held
// in the copy. It is therefore only for single-threaded callers (explore --files); the check
// throws std::logic_error when other threads exist.
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace skipsound::smt {

// Runs `query` in a forked copy of the process and waits for it. nullopt when the copy returned
// normally or by an exception; else how it ended ("killed by signal 11 (Segmentation fault)").
std::optional<std::string> crash_in_copy(const std::function<void()>& query);

}  // namespace skipsound::smt
