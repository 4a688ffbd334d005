#include "adapters/batch_journal.hpp"

#include <map>

namespace ij {

std::vector<batch_mark> open_batches(const std::vector<batch_mark>& marks,
                                     const std::string& judge) {
  std::map<std::string, batch_mark> last;
  std::map<std::string, std::vector<batch_entry>> entries;
  for (auto& m : marks) {
    if (m.judge != judge)
      continue;
    if (!m.entries.empty())
      entries[m.key] = m.entries;
    auto it = last.find(m.key);
    if (it == last.end() || m.step > it->second.step)
      last[m.key] = m;
  }
  std::vector<batch_mark> open;
  for (auto& [key, m] : last)
    if (m.step != batch_step::ended) {
      open.push_back(m);
      open.back().entries = entries[key];
    }
  return open;
}

} // namespace ij
