#pragma once
// Accumulates a panel run's agreement pair by pair (issue 10) and sums it up
// as a panel_summary: tiers, raw agreement, Cohen's kappa (two judges) or
// Fleiss' kappa (more) with intervals (core/agreement/agreement.hpp), and each
// judge's outcomes against the labels. Pure; bounded memory whatever the run
// length.
//
// Ratings are the judges' outcomes: EQUIVALENT, DIFFERENT, NEITHER. A pair on
// which a judge faulted has no rating from it, so it is left out of the
// agreement statistics (its tier is still counted); absent pairs are not
// judged and not counted.
#include <optional>

#include "core/agreement/agreement.hpp"
#include "core/config/run_config.hpp"
#include "messages/panel_summary.hpp"
#include "messages/vote_result.hpp"

namespace ij {

class panel_tally {
public:
  /// `alpha`: the intervals are at confidence 1 - alpha.
  panel_tally(const panel_config& panel, double alpha);

  /// One pair the panel judged: its parts in panel order, and its label.
  void add(const vote_result& vr, std::optional<bool> label);

  panel_summary summary() const;

private:
  panel_config panel_;
  double alpha_;
  panel_summary counts_;
  cohen_table cohen_;
  fleiss_table fleiss_;
  bool labelled_ = false;
};

} // namespace ij
