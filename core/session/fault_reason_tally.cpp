#include "core/session/fault_reason_tally.hpp"

namespace ij {

void fault_reason_tally::add(const std::string& judge, fault_kind kind,
                             const std::string& message) {
  if (kind == fault_kind::none)
    return;
  auto [at, fresh] =
    index_.emplace(std::make_pair(judge, kind), reasons_.size());
  if (fresh)
    reasons_.push_back(fault_reason{judge, kind, message, 0});
  ++reasons_[at->second].count;
}

std::string fault_reason_line(const fault_reason& r) {
  auto text = "judge " + r.judge + ": " + std::string{to_string(r.kind)} + ": "
              + r.first_message;
  if (r.count == 1)
    return text + " (the only such fault)";
  return text + " (first of " + std::to_string(r.count) + " such faults)";
}

} // namespace ij
