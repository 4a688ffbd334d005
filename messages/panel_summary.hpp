#pragma once
// A panel run's agreement (issue 10): how often its judges agreed, Cohen's
// (two judges) or Fleiss' (more) kappa with its interval, and each judge's
// outcomes against the labels. Part of the run summary and of the run-end
// record (core/agreement/panel_tally.hpp computes it).
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

namespace ij {

/// One judge's outcomes against the labels: cells[3 * row + column], rows
/// outcome EQUIVALENT, DIFFERENT, NEITHER (fault included), columns label
/// true, false.
struct judge_confusion {
  std::string judge;
  std::vector<std::uint64_t> cells = std::vector<std::uint64_t>(6, 0);
};

inline bool operator==(const judge_confusion& x, const judge_confusion& y) {
  return x.judge == y.judge && x.cells == y.cells;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_confusion& x) {
  return f(caf::meta::type_name("ij.judge_confusion"), x.judge, x.cells);
}

struct panel_summary {
  /// False: the run had no panel (every other field is empty).
  bool enabled = false;
  std::vector<std::string> judges;
  /// "unanimous" or "majority".
  std::string rule;
  /// Pairs the panel judged (absent pairs are not).
  std::uint64_t pairs = 0;
  /// Agreement tiers of those pairs.
  std::uint64_t all = 0;
  std::uint64_t majority = 0;
  std::uint64_t split = 0;
  /// Pairs no judge faulted on: the subjects of the statistics below.
  std::uint64_t rated = 0;
  /// Raw agreement: the share of rated pairs on which all judges agree,
  /// with its Wilson interval.
  double raw = 0.0;
  double raw_lo = 0.0;
  double raw_hi = 1.0;
  /// "cohen" (two judges) or "fleiss" (more).
  std::string kappa_kind;
  bool kappa_defined = false;
  double kappa = 0.0;
  bool kappa_interval = false;
  double kappa_lo = 0.0;
  double kappa_hi = 0.0;
  /// The intervals' confidence (1 - alpha of the run's statistics).
  double confidence = 0.95;
  /// Per judge, when labelled pairs exist (else empty).
  std::vector<judge_confusion> confusion;
};

inline bool operator==(const panel_summary& x, const panel_summary& y) {
  return x.enabled == y.enabled && x.judges == y.judges && x.rule == y.rule
         && x.pairs == y.pairs && x.all == y.all && x.majority == y.majority
         && x.split == y.split && x.rated == y.rated && x.raw == y.raw
         && x.raw_lo == y.raw_lo && x.raw_hi == y.raw_hi
         && x.kappa_kind == y.kappa_kind && x.kappa_defined == y.kappa_defined
         && x.kappa == y.kappa && x.kappa_interval == y.kappa_interval
         && x.kappa_lo == y.kappa_lo && x.kappa_hi == y.kappa_hi
         && x.confidence == y.confidence && x.confusion == y.confusion;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, panel_summary& x) {
  return f(caf::meta::type_name("ij.panel_summary"), x.enabled, x.judges,
           x.rule, x.pairs, x.all, x.majority, x.split, x.rated, x.raw,
           x.raw_lo, x.raw_hi, x.kappa_kind, x.kappa_defined, x.kappa,
           x.kappa_interval, x.kappa_lo, x.kappa_hi, x.confidence, x.confusion);
}

} // namespace ij
