#include "core/budgets/fault_budget.hpp"

#include <cstdio>

namespace ij {

std::string fault_budget::explanation() const {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "fault rate %.1f%% (%llu of %llu judged pairs were I2 faults) "
                "is above max_fault_rate %g",
                100.0 * rate(), static_cast<unsigned long long>(faults_),
                static_cast<unsigned long long>(pairs_), max_rate_);
  return buf;
}

} // namespace ij
