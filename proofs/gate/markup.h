// Text inside XML and HTML, shared by the JUnit writer (proofs/gate/junit_report.h) and the HTML
// reports (proofs/report/).
#pragma once
#include <string>
#include <string_view>

namespace skipsound {

// `& < > " '` as entities, safe in element text and quoted attribute values of XML and HTML alike;
// the control characters XML 1.0 forbids even when escaped (below 0x20 but tab, newline and
// carriage return) as '?'.
std::string escape_markup(std::string_view text);

}  // namespace skipsound
