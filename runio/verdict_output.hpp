#pragma once
// The driver's output, one JSON object per line, stable for scripts:
// {"kind":"pair",...} per pair as its verdict arrives, {"kind":"item",...}
// per item once all its pairs are judged, {"kind":"canary",...} per live
// canary (README "Output").
#include <optional>
#include <string>

#include "messages/canary_result.hpp"
#include "messages/verdict.hpp"

namespace ij {

/// The line of one pair's verdict (no trailing newline). The pair's label
/// (its known truth) is written only when the input had one.
std::string pair_verdict_line(const single_verdict& v);

/// The line of one item's statistical verdict (no trailing newline).
std::string item_verdict_line(const statistical_verdict& v);

/// The line of one live canary (no trailing newline): {"kind":"canary",
/// "id", "canary" (its kind), "position", "expected", "equivalent",
/// "passed", "failed_judges", "votes"}. Never a pair: scripts that read
/// pairs skip it by its kind.
std::string canary_line(const canary_result& c);

} // namespace ij
