#pragma once
// Position bias (issue 10): with order balancing, odd votes show the judge B
// before A. Per judge and pair, the first readable decision shown A-first is
// compared with the first shown B-first; the rate at which they differ, with
// its Wilson interval, says how much the order of the answers sways the
// judge. Faults and PARSE_ERRORs are no decision. Pure: no I/O.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "messages/judge_record.hpp"
#include "messages/judge_watch.hpp"

namespace ij {

class position_bias_tally {
public:
  /// One judge's records on one pair: whether swapping changed its
  /// decision; nullopt without a readable decision each way round.
  static std::optional<bool>
  swap_changed(const std::vector<const judge_record*>& records);

  /// The records of one pair; `judge_of` names each record's judge.
  void
  add_pair(const std::vector<judge_record>& records,
           const std::function<std::string(const judge_record&)>& judge_of);

  /// One comparison for `judge`.
  void add(const std::string& judge, bool changed);

  /// Per judge, in order of first comparison, at confidence 1 - alpha.
  std::vector<position_bias_rate> rates(double alpha) const;

private:
  struct counts {
    std::string judge;
    std::uint64_t comparisons = 0;
    std::uint64_t changed = 0;
  };
  std::vector<counts> judges_;
};

} // namespace ij
