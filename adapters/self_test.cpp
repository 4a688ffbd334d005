#include "adapters/self_test.hpp"

#include <condition_variable>
#include <iomanip>
#include <memory>
#include <mutex>
#include <utility>

#include "adapters/llm_judge_comparator.hpp"

namespace ij {

namespace {

std::size_t index_of(control_kind k) {
  switch (k) {
    case control_kind::identity: return 0;
    case control_kind::mismatch: return 1;
    case control_kind::abstain: return 2;
    case control_kind::master_key: return 3;
    case control_kind::planted: return 4;
  }
  return 0;
}

// One reply, awaited by the main thread. Shared with the adapter's callback
// so that a reply arriving after we gave up lands somewhere valid.
struct reply_slot {
  std::mutex mtx;
  std::condition_variable cv;
  std::optional<judge_record> record;
};

std::optional<judge_record> call_and_wait(judge_adapter& adapter,
                                          const judge_options& opts,
                                          const judge_request& request,
                                          std::chrono::milliseconds limit) {
  auto slot = std::make_shared<reply_slot>();
  judge_once(adapter, opts, request,
             [slot](judge_record rec, equivalence_outcome) {
               std::lock_guard<std::mutex> guard{slot->mtx};
               slot->record = std::move(rec);
               slot->cv.notify_all();
             });
  std::unique_lock<std::mutex> lock{slot->mtx};
  slot->cv.wait_for(lock, limit, [&] { return slot->record.has_value(); });
  return slot->record;
}

// Keeps each example on one line of the table's output.
std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  return out;
}

} // namespace

const self_test_kind_counts& self_test_report::counts(control_kind k) const {
  return kinds[index_of(k)];
}

std::uint32_t self_test_report::sent() const {
  std::uint32_t n = 0;
  for (const auto& k : kinds)
    n += k.sent;
  return n;
}

std::uint32_t self_test_report::as_expected() const {
  std::uint32_t n = 0;
  for (const auto& k : kinds)
    n += k.as_expected;
  return n;
}

bool self_test_report::passed() const {
  return sent() > 0 && as_expected() == sent();
}

self_test_report run_self_test(judge_adapter& adapter, const call_options& opts,
                               const self_test_options& test_opts) {
  return run_self_test(adapter, opts, negative_controls(), test_opts);
}

self_test_report run_self_test(judge_adapter& adapter, const call_options& opts,
                               const std::vector<control_pair>& pairs,
                               const self_test_options& test_opts) {
  judge_options jopts;
  jopts.call = opts;
  return run_self_test(adapter, jopts, pairs, test_opts);
}

self_test_report run_self_test(judge_adapter& adapter,
                               const judge_options& jopts,
                               const std::vector<control_pair>& pairs,
                               const self_test_options& test_opts,
                               bool non_numeric) {
  const auto& opts = jopts.call;
  self_test_report report;
  report.adapter_id = adapter.id();
  report.model = opts.model;
  auto& prompt =
    non_numeric ? jopts.prompts.non_numeric : jopts.prompts.numeric;
  report.prompt_id = prompt ? prompt->id() : std::string{"(none)"};
  report.kinds[0].kind = control_kind::identity;
  report.kinds[1].kind = control_kind::mismatch;
  report.kinds[2].kind = control_kind::abstain;
  report.kinds[3].kind = control_kind::master_key;
  report.kinds[4].kind = control_kind::planted;
  std::array<std::size_t, 5> kept{};
  auto limit = opts.timeout + test_opts.grace;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& pair = pairs[i];
    auto idx = index_of(pair.kind);
    auto& counts = report.kinds[idx];
    judge_request request;
    request.pair_id =
      "selftest-" + std::string{to_string(pair.kind)} + "-" + std::to_string(i);
    request.a = pair.a;
    request.b = pair.b;
    request.non_numeric = non_numeric;
    ++counts.sent;
    auto rec = call_and_wait(adapter, jopts, request, limit);
    self_test_miss miss;
    if (!rec) {
      ++counts.faults;
      miss.excerpt = "no reply within " + std::to_string(limit.count()) + " ms";
    } else if (rec->transport_failed) {
      ++counts.faults;
      miss.excerpt = rec->transport_error;
    } else if (control_answered_right(pair.kind, rec->decision)) {
      ++counts.as_expected;
      continue;
    } else {
      ++counts.misses;
      miss.got = rec->decision;
      miss.excerpt = rec->raw_text.substr(0, test_opts.excerpt_chars);
    }
    if (kept[idx] < test_opts.max_examples_per_kind) {
      ++kept[idx];
      miss.kind = pair.kind;
      miss.a = pair.a;
      miss.b = pair.b;
      miss.expected = pair.expected;
      report.examples.push_back(std::move(miss));
    }
  }
  return report;
}

void print_self_test_report(std::ostream& out, const self_test_report& r) {
  out << "Negative-control self-test of " << r.adapter_id;
  if (!r.model.empty())
    out << " (model " << r.model << ")";
  if (!r.prompt_id.empty())
    out << ", prompt " << r.prompt_id;
  out << "\n\n";
  out << std::left << std::setw(11) << "kind" << std::right << std::setw(6)
      << "sent" << std::setw(13) << "as expected" << std::setw(8) << "misses"
      << std::setw(8) << "faults"
      << "\n";
  for (const auto& k : r.kinds)
    out << std::left << std::setw(11) << to_string(k.kind) << std::right
        << std::setw(6) << k.sent << std::setw(13) << k.as_expected
        << std::setw(8) << k.misses << std::setw(8) << k.faults << "\n";
  out << std::left << std::setw(11) << "total" << std::right << std::setw(6)
      << r.sent() << std::setw(13) << r.as_expected() << "\n";
  if (!r.examples.empty()) {
    out << "\nNot as predicted (the first few of each kind):\n";
    for (const auto& m : r.examples) {
      out << "- [" << to_string(m.kind) << "] A=\"" << one_line(m.a)
          << "\" B=\"" << one_line(m.b) << "\": expected "
          << (m.kind == control_kind::master_key
                  || m.kind == control_kind::planted
                ? std::string_view{"ABSTAIN or DIFFERENT"}
                : to_string(m.expected))
          << ", got ";
      if (m.got)
        out << to_string(*m.got) << "; reply: \"" << one_line(m.excerpt)
            << "\"\n";
      else
        out << "a fault: " << one_line(m.excerpt) << "\n";
    }
  }
  out << "\n"
      << (r.passed() ? "PASSED: every control pair came back as predicted."
                     : "FAILED: the judge did not answer every control pair "
                       "as predicted; do not trust its verdicts.")
      << "\n";
}

} // namespace ij
