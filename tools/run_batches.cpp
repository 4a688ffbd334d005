#include "tools/run_batches.hpp"

#include <future>

#include "adapters/batch_judge.hpp"

namespace ij {

void run_batches::take(const std::vector<judge_binding>& bound) {
  for (auto& b : bound)
    if (b.batch)
      judges.push_back(b.batch);
}

std::size_t run_batches::adopt(const resume_point& resume) {
  std::vector<batch_mark> marks;
  marks.reserve(resume.batches.size());
  for (auto& r : resume.batches)
    marks.push_back(to_batch_mark(r));
  // Each judge takes its own (marks name the judge's adapter id).
  std::size_t open = 0;
  for (auto& j : judges)
    open += open_batches(marks, j->id()).size();
  if (open > 0)
    for (auto& j : judges)
      j->adopt(marks);
  return open;
}

std::string batch_progress_text(const batch_stats& s) {
  auto out = "batches " + std::to_string(s.submitted) + " submitted, "
             + std::to_string(s.in_progress) + " in progress, "
             + std::to_string(s.ended) + " ended";
  if (s.oldest_age_ms > 0)
    out += ", oldest " + std::to_string(s.oldest_age_ms / 1000) + "s";
  return out;
}

std::string run_batches::progress() const {
  if (judges.empty())
    return {};
  batch_stats sum;
  for (auto& j : judges)
    sum += j->stats();
  return batch_progress_text(sum);
}

void run_batches::cancel(const std::string& run_tag,
                         std::chrono::milliseconds bound) {
  if (judges.empty())
    return;
  std::vector<std::shared_ptr<std::promise<void>>> acks;
  for (auto& j : judges) {
    auto ack = std::make_shared<std::promise<void>>();
    acks.push_back(ack);
    j->cancel_run(run_tag, [ack] { ack->set_value(); });
  }
  // Bounded: a provider that does not answer must not hold Ctrl-C up; the
  // batches stay recorded and a resume polls them.
  auto until = std::chrono::steady_clock::now() + bound;
  for (auto& ack : acks)
    if (ack->get_future().wait_until(until) != std::future_status::ready)
      return;
}

} // namespace ij
