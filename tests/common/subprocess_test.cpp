// The one subprocess helper (common/subprocess.h): arguments reach the program as they are, with no
// shell; stdin is fed through a pipe, also to a program that stops reading early; the working
// folder is the request's; a program past its deadline is killed (with its process group when it
// leads one), output may go to a file, and one that cannot start says why.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "model/values/scratch_directory.h"
#include "common/subprocess.h"

namespace skipsound {
namespace {

TEST(Subprocess, ArgumentsAreNeverShellSyntax) {
  const ScratchDirectory dir("test");
  ProcessRequest r{{"echo", "$(touch marker)", "`touch marker`", "; touch marker", "a  b"}};
  r.working_dir = dir.path();
  const ProcessOutput p = run_process(r);
  EXPECT_EQ(p.exit_status(), 0);
  EXPECT_EQ(p.text, "$(touch marker) `touch marker` ; touch marker a  b\n");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Subprocess, RunsInTheWorkingFolderWithStdoutAndStderrTogether) {
  const ScratchDirectory dir("test");
  ProcessRequest r{{"sh", "-c", "pwd; echo oops >&2; exit 3"}};
  r.working_dir = dir.path();
  const ProcessOutput p = run_process(r);
  EXPECT_EQ(p.exit_status(), 3);
  EXPECT_EQ(p.text, std::filesystem::canonical(dir.path()).string() + "\noops\n");
}

TEST(Subprocess, StdinIsTheFileThroughAPipe) {
  const ScratchDirectory dir("test");
  const std::filesystem::path file = dir.path() / "in.txt";
  std::ofstream(file) << std::string(300'000, 'x') << "\n";  // more than a pipe holds at once
  ProcessRequest r{{"sh", "-c", "test -p /dev/stdin && wc -c"}};
  r.stdin_file = file;
  const ProcessOutput p = run_process(r);
  EXPECT_EQ(p.exit_status(), 0) << p.text;
  EXPECT_EQ(p.text, "300001\n");
}

// The reader takes 10 bytes of 70 MB and exits: the rest is not written, and no SIGPIPE ends
// this program (it would end the whole test binary).
TEST(Subprocess, AReaderThatStopsEarlyEndsTheFeedingNotTheCaller) {
  const ScratchDirectory dir("test");
  const std::filesystem::path file = dir.path() / "zeros";
  std::ofstream(file).close();
  std::filesystem::resize_file(file, 70'000'000);
  ProcessRequest r{{"head", "-c", "10"}};
  r.stdin_file = file;
  const ProcessOutput p = run_process(r);
  EXPECT_EQ(p.exit_status(), 0);
  EXPECT_EQ(p.text, std::string(10, '\0'));
  EXPECT_LT(p.seconds, 10);
}

TEST(Subprocess, WithoutAStdinFileItReadsNothing) {
  const ProcessOutput p = run_process({{"wc", "-c"}});
  EXPECT_EQ(p.exit_status(), 0);
  EXPECT_EQ(p.text, "0\n");
}

TEST(Subprocess, PastTheDeadlineItIsKilled) {
  const ProcessOutput p = run_process({{"sleep", "30"}, 200});
  EXPECT_TRUE(p.killed);
  EXPECT_EQ(p.exit_status(), std::nullopt);
  EXPECT_LT(p.seconds, 10);
}

TEST(Subprocess, OneThatClosesItsOutputAndGoesOnIsKilledAtTheDeadlineToo) {
  const ProcessOutput p = run_process({{"sh", "-c", "exec >&- 2>&-; exec sleep 30"}, 200});
  EXPECT_TRUE(p.killed);
  EXPECT_LT(p.seconds, 10);
}

TEST(Subprocess, AProgramThatCannotStartSaysWhy) {
  const ProcessOutput missing = run_process({{"skipsound-no-such-program"}});
  EXPECT_EQ(missing.spawn_error, "skipsound-no-such-program: No such file or directory");
  EXPECT_EQ(missing.exit_status(), std::nullopt);
  ProcessRequest unreadable{{"cat"}};
  unreadable.stdin_file = "no-such-folder/no-such-file";
  EXPECT_EQ(run_process(unreadable).spawn_error, "cannot read no-such-folder/no-such-file: No such file or directory");
}

// Whether a process has ended: gone, or a zombie its new parent has not reaped yet.
bool ended(int pid) {
  if (kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string id, name, state;
  return stat >> id >> name >> state && state == "Z";
}

// The mutation tool's way: output to a log file, the process leading its own group, whose every
// member dies at the deadline (a build's compilers with it), and the pid told as it starts.
TEST(Subprocess, WithAnOutputFileAndItsOwnGroupTheWholeGroupIsKilledAtTheDeadline) {
  const ScratchDirectory dir("test");
  ProcessRequest r{{"sh", "-c", "echo started; echo oops >&2; sleep 30 & echo $! > child; wait"}, 500};
  r.working_dir = dir.path();
  r.output_file = dir.path() / "log";
  r.own_process_group = true;
  int started = 0;
  r.on_start = [&](int pid) { started = pid; };
  const ProcessOutput p = run_process(r);
  EXPECT_TRUE(p.killed);
  EXPECT_GT(started, 0);
  EXPECT_EQ(p.text, "");
  std::ifstream log(dir.path() / "log");
  const std::string logged((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(logged, "started\noops\n");
  std::ifstream child_file(dir.path() / "child");
  int child = 0;
  ASSERT_TRUE(child_file >> child);
  // The group's other member has ended too (allow the kill a moment to land).
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ended(child);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(gone) << "the sleep the shell started outlived the deadline";
}

TEST(Subprocess, WithAnOutputFileItsExitStatusIsKept) {
  const ScratchDirectory dir("test");
  ProcessRequest r{{"sh", "-c", "echo done; exit 4"}};
  r.output_file = dir.path() / "log";
  const ProcessOutput p = run_process(r);
  EXPECT_EQ(p.exit_status(), 4);
  EXPECT_FALSE(p.killed);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "log"));
}

}  // namespace
}  // namespace skipsound
