#pragma once
// The negative-control self-test (SPEC §9): every built-in control pair goes
// to the judge as a canonical prompt, directly (no absence shortcut: the
// abstain pairs must reach the judge), and must come back as predicted.
//
// run_self_test blocks until each reply arrives, one pair at a time: it is
// for the command line's main thread (`invjudge selftest`), never for an
// actor.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "adapters/judge_adapter.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "core/canaries/negative_controls.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

/// One pair that did not come back as predicted.
struct self_test_miss {
  control_kind kind = control_kind::identity;
  std::string a;
  std::string b;
  judge_decision expected = judge_decision::parse_error;
  /// The decision read from the reply; nullopt for a fault.
  std::optional<judge_decision> got;
  /// The start of the raw reply, or the fault's error text.
  std::string excerpt;
};

struct self_test_kind_counts {
  control_kind kind = control_kind::identity;
  std::uint32_t sent = 0;
  std::uint32_t as_expected = 0;
  /// Replies read as another decision (PARSE_ERROR included).
  std::uint32_t misses = 0;
  /// Calls that failed: transport error, adapter exception, no reply in time.
  std::uint32_t faults = 0;
};

struct self_test_report {
  std::string adapter_id;
  std::string model;
  /// The prompt the pairs were sent with (issue 29).
  std::string prompt_id;
  /// identity, mismatch, abstain, master_key, planted, in that order.
  std::array<self_test_kind_counts, 5> kinds{};
  /// The first few misses and faults of each kind, in sending order.
  std::vector<self_test_miss> examples;

  const self_test_kind_counts& counts(control_kind k) const;
  std::uint32_t sent() const;
  std::uint32_t as_expected() const;
  /// True only when pairs were sent and every one came back as predicted.
  bool passed() const;
};

struct self_test_options {
  /// Examples kept per kind.
  std::size_t max_examples_per_kind = 3;
  /// Characters of raw reply kept per example.
  std::size_t excerpt_chars = 160;
  /// How long to wait for one reply beyond the call's own timeout before
  /// counting it as a fault (the adapter should have given up by then).
  std::chrono::milliseconds grace{5000};
};

/// Sends every pair of negative_controls() to `adapter` with `opts`.
self_test_report run_self_test(judge_adapter& adapter, const call_options& opts,
                               const self_test_options& test_opts = {});

/// The same over an explicit pair set (tests use it with small sets).
self_test_report run_self_test(judge_adapter& adapter, const call_options& opts,
                               const std::vector<control_pair>& pairs,
                               const self_test_options& test_opts = {});

/// The pairs sent with one of a judge's prompts (issue 29): `opts.prompts`'
/// numeric one, or its non-numeric one when `non_numeric`. A declared
/// prompt is tested like a built-in one.
self_test_report run_self_test(judge_adapter& adapter,
                               const judge_options& opts,
                               const std::vector<control_pair>& pairs,
                               const self_test_options& test_opts = {},
                               bool non_numeric = false);

/// A per-kind table, the kept examples, and a final PASSED or FAILED line.
void print_self_test_report(std::ostream& out, const self_test_report& r);

} // namespace ij
