#include "daemon/run_events.hpp"

#include <algorithm>

namespace ij {

std::uint64_t run_events::version(const std::string& run) const {
  std::lock_guard<std::mutex> guard{mtx_};
  auto i = runs_.find(run);
  return i == runs_.end() ? 0 : i->second.version;
}

run_events::ticket run_events::wait(const std::string& run, std::uint64_t seen,
                                    wake_fn wake) {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    auto& e = runs_[run];
    if (e.version == seen) {
      // Those answered by their deadline leave room here.
      e.waiting.erase(std::remove_if(e.waiting.begin(), e.waiting.end(),
                                     [](auto& w) { return w.expired(); }),
                      e.waiting.end());
      auto t = std::make_shared<wake_fn>(std::move(wake));
      e.waiting.push_back(t);
      return t;
    }
  }
  wake();
  return nullptr;
}

void run_events::changed(const std::string& run) {
  std::vector<std::weak_ptr<wake_fn>> woken;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    auto& e = runs_[run];
    ++e.version;
    woken.swap(e.waiting);
  }
  for (auto& w : woken)
    if (auto wake = w.lock())
      (*wake)();
}

std::size_t run_events::waiting() const {
  std::lock_guard<std::mutex> guard{mtx_};
  std::size_t n = 0;
  for (auto& [run, e] : runs_)
    for (auto& w : e.waiting)
      n += w.expired() ? 0 : 1;
  return n;
}

} // namespace ij
