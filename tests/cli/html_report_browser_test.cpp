// The HTML report in a real browser (docs/gate.md, "The HTML report"): a gate run under a named
// mutant writes its page with `--html`, and Debian's chromium, headless and without a network
// (a proxy that goes nowhere, every host name unresolvable), renders it. The rendered DOM must
// show the finding's headline, one lane per transaction and the file the conflict check should
// have kept; Chromium's net log must show no request the page made (requests whose network
// isolation key is the page's file:// origin; the browser's own background requests carry none).
// A control page with an external image shows that the net-log check sees a page's request.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/subprocess.h"
#include "model/values/scratch_directory.h"
#include "tests/support/skipsound_process.h"

namespace skipsound {
namespace {

namespace fs = std::filesystem;

constexpr const char* kChromium = "/usr/bin/chromium";

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Text as Chromium's --dump-dom serializes it in an element.
std::string dom_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return out;
}

// The counterexample's headline as the gate's text summary prints it on the mutant's line.
std::string printed_headline(const std::string& output, const std::string& killed_by) {
  const size_t at = output.find(killed_by + ": ");
  if (at == std::string::npos) return "";
  const size_t start = at + killed_by.size() + 2;
  return output.substr(start, output.find('\n', start) - start);
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

struct Rendered {
  std::string dom;
  std::vector<std::string> page_requests;  // URLs the page itself asked for
};

// The addresses of the requests a file:// page made, from Chromium's net log.
std::vector<std::string> page_requests(const fs::path& net_log) {
  const nlohmann::json log = nlohmann::json::parse(read_file(net_log));
  int start_job = -1;
  for (const auto& [name, id] : log.at("constants").at("logEventTypes").items()) {
    if (name == "URL_REQUEST_START_JOB") start_job = id.get<int>();
  }
  std::vector<std::string> urls;
  for (const nlohmann::json& event : log.at("events")) {
    if (event.value("type", -2) != start_job || !event.contains("params")) continue;
    const nlohmann::json& params = event["params"];
    if (params.value("network_isolation_key", "").find("file://") != std::string::npos) {
      urls.push_back(params.value("url", "?"));
    }
  }
  return urls;
}

// Chromium's profile, config and cache stay in `scratch`, which the test removes.
Rendered render_offline(const fs::path& page, const fs::path& scratch) {
  const fs::path net_log = scratch / (page.stem().string() + "-net.json");
  const ProcessOutput out = run_process(ProcessRequest(
      {"/usr/bin/env", "HOME=" + scratch.string(), "XDG_CONFIG_HOME=" + (scratch / "config").string(),
       "XDG_CACHE_HOME=" + (scratch / "cache").string(), kChromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
       "--disable-component-update", "--disable-sync", "--user-data-dir=" + (scratch / "profile").string(),
       "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--log-net-log=" + net_log.string(),
       "--dump-dom", "file://" + page.string()},
      60'000));
  EXPECT_EQ(out.exit_status(), 0) << out.spawn_error << out.text.substr(0, 2000);
  // stdout and stderr come together: the DOM is the part from the doctype on.
  const size_t doctype = out.text.find("<!DOCTYPE html>");
  return {doctype == std::string::npos ? "" : out.text.substr(doctype), page_requests(net_log)};
}

TEST(HtmlReportBrowser, TheNetLogCheckSeesAPagesOwnRequest) {
  ASSERT_TRUE(fs::exists(kChromium)) << "chromium is not installed (scripts/run installs it)";
  const ScratchDirectory scratch("html-control");
  const fs::path page = scratch.path() / "control.html";
  std::ofstream(page) << "<!DOCTYPE html><html><body><p>control</p><img src=\"http://example.invalid/x.png\"></body></html>";
  const Rendered rendered = render_offline(page, scratch.path());
  EXPECT_NE(rendered.dom.find("<p>control</p>"), std::string::npos);
  EXPECT_EQ(rendered.page_requests, std::vector<std::string>{"http://example.invalid/x.png"});
}

TEST(HtmlReportBrowser, GatePageWithAMutantsCounterexampleRendersOffline) {
  ASSERT_TRUE(fs::exists(kChromium)) << "chromium is not installed (scripts/run installs it)";
  const ScratchDirectory scratch("html-gate");
  const fs::path corpus = scratch.path() / "no-corpus";
  const fs::path html = scratch.path() / "gate.html";
  fs::create_directories(corpus);
  const test::ProcessOutcome gate = test::run_skipsound(
      test::small_gate_arguments(corpus.string()) + " --mutant append-suppression --seed 2 --html '" + html.string() + "'",
      scratch.path().string());
  ASSERT_EQ(gate.exit_code, 0) << "the mutant is killed\n" << gate.output;
  const std::string page = read_file(html);
  for (const char* outside : {"http:", "https:", "src=", "href=", "url(", "@import"}) {
    EXPECT_EQ(page.find(outside), std::string::npos) << "the page names " << outside;
  }

  const Rendered rendered = render_offline(html, scratch.path());
  EXPECT_TRUE(rendered.page_requests.empty()) << rendered.page_requests.front();
  const std::string& dom = rendered.dom;
  EXPECT_NE(dom.find("skipsound gate <span class=\"verdict pass\">PASSED</span>"), std::string::npos);
  EXPECT_NE(dom.find("skipsound gate --seed 2 --budget 200 --category value-moving --mutant append-suppression"),
            std::string::npos);
  EXPECT_NE(dom.find("killed by explorer (value-moving)"), std::string::npos);
  const std::string headline = printed_headline(gate.output, "explorer (value-moving)");
  ASSERT_FALSE(headline.empty()) << gate.output;
  EXPECT_NE(dom.find(dom_text(headline)), std::string::npos) << "the counterexample's headline: " << headline;
  EXPECT_GE(occurrences(dom, "<g class=\"lane-group\" data-transaction="), 2u) << "a lane per transaction";
  EXPECT_EQ(occurrences(dom, "<rect class=\"marked\""), 1u) << "the file the check should have kept";
  EXPECT_NE(dom.find("SHOULD BE KEPT"), std::string::npos);
  EXPECT_NE(dom.find("False conflicts per 100 commit attempts"), std::string::npos);
  EXPECT_NE(dom.find("<div class=\"coverage\">"), std::string::npos);
}

TEST(HtmlReportCli, ScenarioAndReplayWriteTheirPages) {
  const ScratchDirectory scratch("html-scenario");
  const std::string scenario =
      std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/scenarios/mutant_append_suppression_write_skew.scn";
  const fs::path scenario_page = scratch.path() / "scenario.html";
  const test::ProcessOutcome run =
      test::run_skipsound("scenario --html '" + scenario_page.string() + "' '" + scenario + "'", scratch.path().string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const std::string page = read_file(scenario_page);
  EXPECT_NE(page.find("<h1>skipsound scenario <span class=\"verdict pass\">PASSED</span>"), std::string::npos);
  EXPECT_NE(page.find("data-transaction=\"T2\""), std::string::npos);
  EXPECT_NE(page.find("MISSED CONFLICT: T2 committed"), std::string::npos);

  const std::string per_file = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/files/mutant-le-as-lt.json";
  const fs::path replay_page = scratch.path() / "replay.html";
  const test::ProcessOutcome replayed = test::run_skipsound(
      "replay --html '" + replay_page.string() + "' '" + per_file + "'", scratch.path().string());
  EXPECT_EQ(replayed.exit_code, 0) << "the case's outcome under its own mutant\n" << replayed.output;
  const std::string replay = read_file(replay_page);
  EXPECT_NE(replay.find("<h1>skipsound replay <span class=\"verdict pass\">PASSED</span>"), std::string::npos);
  EXPECT_NE(replay.find("witness row ("), std::string::npos);
  EXPECT_NE(replay.find("class=\"grid trace\""), std::string::npos) << "the skipping expression's parts";
}

}  // namespace
}  // namespace skipsound
