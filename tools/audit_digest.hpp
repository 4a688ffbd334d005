#pragma once
// What the HTML report shows (tools/html_report), read from an audit trail
// and nothing else, so that any run can be reported later: the manifest's
// declarations, verdicts by rule and against labels, per-judge calls,
// decisions, latencies and tokens, agreement between judges that answered
// the same pairs, a panel's agreement and a cascade's account (computed by
// core/agreement/panel_tally and core/agreement/cascade_tally from the vote
// records, as the run summary is), canaries and bias alarms over the run,
// position bias. Canaries are never pairs here: their judge calls count as
// calls and tokens only. Tolerant: record types it does not know are counted
// and listed, fields it does not find are left at zero, so audits of older or
// newer versions still report.
#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/agreement/agreement.hpp"
#include "messages/cascade_summary.hpp"
#include "messages/judge_watch.hpp"
#include "messages/panel_summary.hpp"
#include "tools/batch_digest.hpp"

namespace ij {

/// Latency histogram bin edges in milliseconds (the last bin is open).
inline constexpr double latency_edges_ms[] = {
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000};

struct audit_digest {
  // The manifest.
  std::string run_id;
  std::string started_at;
  std::string version;
  std::string prompt_id;
  std::string prompt_sha256;
  std::uint64_t votes = 0;
  std::uint64_t min_agreement = 0;
  bool order_balancing = false;
  double canary_rate = 0;
  std::uint64_t canary_seed = 0;
  std::string on_alarm;
  /// The run's statistics alpha: intervals are at confidence 1 - alpha.
  double alpha = 0.05;
  /// The rule judges' declared answer policy, "rounding abstain, percent
  /// either, ..." (empty in audits written before it was recorded).
  std::string answer_policy;
  /// The calibration map the run declared (its path as recorded and its
  /// SHA-256; empty: none) and its stop.probability, if any.
  std::string calibration_map;
  std::string calibration_sha256;
  std::optional<double> stop_probability;

  // The run end.
  bool has_run_end = false;
  bool interrupted = false;
  bool stopped_by_alarm = false;
  std::vector<position_bias_rate> position_bias;

  std::uint64_t records = 0;
  std::uint64_t pairs = 0;
  std::array<std::uint64_t, 5> by_rule{};
  /// [outcome true, false, neither][label true, false]
  std::array<std::array<std::uint64_t, 2>, 3> confusion{};
  std::uint64_t labelled = 0;
  /// Labelled pairs with a calibrated probability, scored as the run
  /// summary scores them (core/calibration/calibration's score_pair): the
  /// leading decision's probability and whether it was right.
  std::vector<double> pair_probability;
  std::vector<bool> pair_right;
  /// Pairs by why their voting stopped (the vote records' "stop":
  /// outcome_fixed, probability, votes_exhausted), in first-seen order.
  std::vector<std::pair<std::string, std::uint64_t>> stops;
  /// The run's batches (batched judges), from its `batch` records.
  std::vector<batch_row> batches;
  /// INVARIANT, VIOLATED, NEITHER.
  std::array<std::uint64_t, 3> items{};
  std::uint64_t rejected = 0;

  struct judge {
    std::string name;
    std::uint64_t calls = 0;
    std::uint64_t faults = 0;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    /// Declared prices per million input and output tokens, when the
    /// manifest's configuration gives them ("prices": {"input", "output"}).
    std::optional<double> price_input;
    std::optional<double> price_output;
    /// The share of the price a batched call costs ("batch_discount").
    double batch_discount = 0.5;
    /// Calls answered through a batch API, and their tokens (part of the
    /// totals above).
    std::uint64_t batched_calls = 0;
    std::uint64_t batched_input_tokens = 0;
    std::uint64_t batched_output_tokens = 0;
    /// EQUIVALENT, DIFFERENT, ABSTAIN, PARSE_ERROR (faults excluded).
    std::array<std::uint64_t, 4> decisions{};
    /// One count per latency bin (latency_edges_ms, plus the open bin).
    std::array<std::uint64_t, std::size(latency_edges_ms) + 1> latency{};
  };
  std::vector<judge> judges;

  /// Two judges that answered the same pairs (never canaries): with a
  /// panel their outcomes (EQUIVALENT, DIFFERENT, NEITHER) on the pairs
  /// every panel judge rated, else their majority decisions (EQUIVALENT,
  /// DIFFERENT, ABSTAIN), compared.
  struct agreement {
    std::string a;
    std::string b;
    std::uint64_t pairs = 0;
    std::uint64_t agree = 0;
    /// Raw agreement with its Wilson interval (confidence 1 - alpha).
    rate_estimate raw;
    /// Cohen's kappa with its jackknife interval; not defined when chance
    /// agreement is 1 (one class only).
    kappa_estimate kappa;
  };
  std::vector<agreement> agreements;

  /// A panel run: tiers, raw agreement, kappa and each judge against the
  /// labels, as the run summary computes them.
  std::optional<panel_summary> panel;
  /// A cascade run: paths, the audit's findings, calls.
  std::optional<cascade_summary> cascade;

  struct canary {
    std::string kind;
    std::optional<bool> passed;
    std::vector<std::string> failed_judges;
    std::vector<std::string> judges;
  };
  std::vector<canary> canaries;

  struct alarm {
    std::string judge;
    std::string mode;
    std::string action;
    std::uint64_t at_canary = 0;
    std::uint64_t failures = 0;
    std::uint64_t observations = 0;
    double llr = 0;
    double threshold = 0;
  };
  std::vector<alarm> alarms;

  /// Record types this reader does not know (e.g. from a newer version),
  /// with their counts.
  std::vector<std::pair<std::string, std::uint64_t>> other_records;
};

/// Reads every line of an audit trail; a line that is not a JSON object is
/// skipped (the chain verifier has judged the file already).
audit_digest digest_audit(std::istream& in);

} // namespace ij
