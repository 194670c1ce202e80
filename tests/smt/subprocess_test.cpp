// The one subprocess helper (smt/subprocess.h): arguments reach the program as they are, with no
// shell; stdin is fed through a pipe, also to a program that stops reading early; the working
// folder is the request's; a program past its deadline is killed, and one that cannot start says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/values/scratch_directory.h"
#include "smt/subprocess.h"

namespace skipsound::smt {
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

}  // namespace
}  // namespace skipsound::smt
