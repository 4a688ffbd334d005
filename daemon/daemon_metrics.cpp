#include "daemon/daemon_metrics.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "adapters/batch_judge.hpp"
#include "core/audit/run_manifest.hpp"
#include "daemon/run_counts.hpp"

namespace ij {

namespace {

// Label values are quoted; backslash, quote and newline escaped.
std::string label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void header(std::string& out, const char* name, const char* type,
            const char* help) {
  out += std::string{"# HELP "} + name + " " + help + "\n";
  out += std::string{"# TYPE "} + name + " " + type + "\n";
}

// A metric without labels: its header and its one value.
void single(std::string& out, const char* name, const char* type,
            const char* help, std::uint64_t value) {
  header(out, name, type, help);
  out += std::string{name} + " " + std::to_string(value) + "\n";
}

// What a judge's tokens cost, the batched ones at the batch discount.
double spend_of(const judge_spending& t, const token_prices& p) {
  return cost_of(t.input_tokens, t.output_tokens, t.batched_input_tokens,
                 t.batched_output_tokens, p);
}

} // namespace

void daemon_metrics::record_call(const std::string& judge,
                                 const adapter_reply& reply, double seconds) {
  std::lock_guard<std::mutex> guard{mtx_};
  // An aborted call (its run cancelled) is no fault of the backend and
  // has no latency to show.
  bool aborted = reply.fault == fault_kind::aborted;
  auto outcome = reply.cached ? "cached"
                 : reply.ok   ? "ok"
                 : aborted    ? "aborted"
                              : "fault";
  ++requests_[{judge, outcome}];
  if (aborted)
    return;
  if (reply.cached) {
    ++cache_hits_;
    return; // no request was made: no latency
  }
  auto& t = tokens_[judge];
  t.input_tokens += reply.input_tokens;
  t.output_tokens += reply.output_tokens;
  if (reply.batched) {
    t.batched_input_tokens += reply.input_tokens;
    t.batched_output_tokens += reply.output_tokens;
  }
  if (!reply.ok)
    ++faults_[std::string{to_string(
      reply.fault == fault_kind::none ? fault_kind::connection : reply.fault)}];
  auto& h = latency_[judge];
  for (std::size_t i = 0; i < buckets.size(); ++i)
    if (seconds <= buckets[i])
      ++h.counts[i];
  ++h.count;
  h.sum += seconds;
}

void daemon_metrics::record_votes(std::uint64_t cast, std::uint64_t faulted,
                                  std::uint64_t skipped) {
  // Counted by run actors: atomics, no lock an HTTP thread also takes.
  votes_cast_ += cast;
  votes_faulted_ += faulted;
  votes_skipped_ += skipped;
}

void daemon_metrics::watch_judge(const std::string& judge,
                                 judge_adapter_ptr adapter,
                                 std::uint32_t configured) {
  std::lock_guard<std::mutex> guard{mtx_};
  judges_.push_back({judge, adapter, configured});
}

void daemon_metrics::price_judge(const std::string& judge,
                                 token_prices prices) {
  std::lock_guard<std::mutex> guard{mtx_};
  prices_[judge] = prices;
}

double daemon_metrics::spend(const std::string& judge) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto t = tokens_.find(judge);
  auto p = prices_.find(judge);
  return t == tokens_.end() || p == prices_.end()
           ? 0.0
           : spend_of(t->second, p->second);
}

std::uint64_t daemon_metrics::requests(const std::string& judge,
                                       const std::string& outcome) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto it = requests_.find({judge, outcome});
  return it == requests_.end() ? 0 : it->second;
}

void daemon_metrics::watch_batches(std::shared_ptr<batch_judge> judge) {
  std::lock_guard<std::mutex> guard{mtx_};
  batch_judges_.push_back(judge);
}

namespace {

// The batches of every batched judge: by state, and the oldest open one's
// age (present, at 0, without a batched judge: dashboards need no guard).
// Tokens by judge, kind and mode (sync or batch), and the spend of the
// judges with declared prices.
void token_metrics(std::string& out,
                   const std::map<std::string, judge_spending>& tokens,
                   const std::map<std::string, token_prices>& prices) {
  header(out, "invjudge_judge_tokens_total", "counter",
         "Tokens of the judge calls made, by kind (input, output) and mode "
         "(sync; batch: answered through a provider's batch API).");
  for (auto& [judge, t] : tokens) {
    auto j =
      "invjudge_judge_tokens_total{judge=\"" + label(judge) + "\",kind=\"";
    out += j + "input\",mode=\"sync\"} "
           + std::to_string(t.input_tokens - t.batched_input_tokens) + "\n";
    out += j + "input\",mode=\"batch\"} "
           + std::to_string(t.batched_input_tokens) + "\n";
    out += j + "output\",mode=\"sync\"} "
           + std::to_string(t.output_tokens - t.batched_output_tokens) + "\n";
    out += j + "output\",mode=\"batch\"} "
           + std::to_string(t.batched_output_tokens) + "\n";
  }
  header(out, "invjudge_judge_spend_total", "counter",
         "What a judge's calls cost at its declared prices (per million "
         "tokens, in their currency); batched calls at the batch discount. "
         "Judges without prices are absent.");
  for (auto& [judge, p] : prices) {
    auto t = tokens.find(judge);
    auto cost = t == tokens.end() ? 0.0 : spend_of(t->second, p);
    out += "invjudge_judge_spend_total{judge=\"" + label(judge) + "\"} "
           + num(cost) + "\n";
  }
}

void batch_metrics(std::string& out,
                   const std::vector<std::weak_ptr<batch_judge>>& judges) {
  batch_stats sum;
  for (auto& w : judges)
    if (auto j = w.lock())
      sum += j->stats();
  header(out, "invjudge_batches", "gauge",
         "Batches of batched judges by state: submitted (not started at the "
         "provider), in_progress, ended (since the daemon started).");
  out += "invjudge_batches{state=\"submitted\"} "
         + std::to_string(sum.submitted) + "\n";
  out += "invjudge_batches{state=\"in_progress\"} "
         + std::to_string(sum.in_progress) + "\n";
  out +=
    "invjudge_batches{state=\"ended\"} " + std::to_string(sum.ended) + "\n";
  header(out, "invjudge_batch_oldest_age_seconds", "gauge",
         "Age of the oldest open batch; 0 when none is open.");
  out += "invjudge_batch_oldest_age_seconds " + num(sum.oldest_age_ms / 1000.0)
         + "\n";
}

} // namespace

// Workers of one judge name (runs that differ in another setting) add up:
// one series per judge.
void daemon_metrics::in_flight_caps(std::string& out) const {
  header(out, "invjudge_judge_in_flight_cap", "gauge",
         "Calls a judge may have in flight now (adaptive backends lower it "
         "under 429/529).");
  std::map<std::string, std::uint64_t> caps;
  for (auto& w : judges_) {
    std::uint32_t cap = w.configured;
    if (auto a = w.adapter.lock())
      if (auto now = a->current_concurrency(); now != 0 && now < cap)
        cap = now;
    caps[w.judge] += cap;
  }
  for (auto& [judge, cap] : caps)
    out += "invjudge_judge_in_flight_cap{judge=\"" + label(judge) + "\"} "
           + std::to_string(cap) + "\n";
}

std::string daemon_metrics::render(const run_figures& runs) {
  std::lock_guard<std::mutex> guard{mtx_};
  // Workers ended since (idle ones are retired): their adapters are gone.
  judges_.erase(std::remove_if(judges_.begin(), judges_.end(),
                               [](auto& w) { return w.adapter.expired(); }),
                judges_.end());
  batch_judges_.erase(std::remove_if(batch_judges_.begin(), batch_judges_.end(),
                                     [](auto& w) { return w.expired(); }),
                      batch_judges_.end());
  std::string out;
  header(out, "invjudge_build_info", "gauge",
         "The software version of this daemon.");
  out +=
    "invjudge_build_info{version=\"" + label(software_version()) + "\"} 1\n";
  header(out, "invjudge_judge_requests_total", "counter",
         "Judge calls by judge and outcome (ok, fault, cached: reused from "
         "the response cache, no request made; aborted: its run was "
         "cancelled).");
  for (auto& [key, n] : requests_)
    out += "invjudge_judge_requests_total{judge=\"" + label(key.first)
           + "\",outcome=\"" + key.second + "\"} " + std::to_string(n) + "\n";
  header(out, "invjudge_judge_request_duration_seconds", "histogram",
         "Latency of the judge calls made (retries included).");
  for (auto& [judge, h] : latency_) {
    auto j = label(judge);
    for (std::size_t i = 0; i < buckets.size(); ++i)
      out += "invjudge_judge_request_duration_seconds_bucket{judge=\"" + j
             + "\",le=\"" + num(buckets[i]) + "\"} "
             + std::to_string(h.counts[i]) + "\n";
    out += "invjudge_judge_request_duration_seconds_bucket{judge=\"" + j
           + "\",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
    out += "invjudge_judge_request_duration_seconds_sum{judge=\"" + j + "\"} "
           + num(h.sum) + "\n";
    out += "invjudge_judge_request_duration_seconds_count{judge=\"" + j + "\"} "
           + std::to_string(h.count) + "\n";
  }
  header(out, "invjudge_faults_total", "counter",
         "Failed judge calls by fault kind.");
  for (auto& [kind, n] : faults_)
    out += "invjudge_faults_total{kind=\"" + label(kind) + "\"} "
           + std::to_string(n) + "\n";
  single(out, "invjudge_cache_hits_total", "counter",
         "Judge records reused from the response cache.", cache_hits_);
  single(out, "invjudge_votes_cast_total", "counter",
         "Votes cast for pairs with a verdict: a decision, an abstention or "
         "an unreadable reply (a call that failed casts no vote).",
         votes_cast_.load());
  single(out, "invjudge_votes_faulted_total", "counter",
         "Votes whose judge call failed (faults, not votes cast).",
         votes_faulted_.load());
  single(out, "invjudge_votes_skipped_total", "counter",
         "Votes not cast because the outcome was already fixed.",
         votes_skipped_.load());
  header(out, "invjudge_runs", "gauge", "Runs by state.");
  for (auto state : all_run_states) {
    auto i = runs.runs_by_state.find(state);
    out += "invjudge_runs{state=\"" + std::string{to_string(state)} + "\"} "
           + std::to_string(i == runs.runs_by_state.end() ? 0 : i->second)
           + "\n";
  }
  out += counts_metrics(runs.count_sums);
  single(out, "invjudge_followers_waiting", "gauge",
         "Requests for verdicts waiting for the next ones (wait_ms).",
         runs.followers_waiting);
  single(out, "invjudge_actors_running", "gauge",
         "Actors alive in the daemon: its services, and each live run's "
         "actors (a finished run's have ended).",
         runs.actors_running);
  single(out, "invjudge_runs_removed_total", "counter",
         "Finished runs the retention removed (SERVE.json retention) since "
         "the daemon started: their files and rows; they answer 410 Gone.",
         runs.runs_removed);
  in_flight_caps(out);
  token_metrics(out, tokens_, prices_);
  batch_metrics(out, batch_judges_);
  return out;
}

namespace {

class metered_adapter : public judge_adapter {
public:
  metered_adapter(judge_adapter_ptr inner, std::shared_ptr<daemon_metrics> m,
                  std::string judge)
      : inner_(std::move(inner)), metrics_(std::move(m)),
        judge_(std::move(judge)) {}
  std::string id() const override { return inner_->id(); }
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    auto start = std::chrono::steady_clock::now();
    inner_->call(prompt, opts,
                 [m = metrics_, judge = judge_, start,
                  done = std::move(done)](adapter_reply r) {
                   std::chrono::duration<double> took =
                     std::chrono::steady_clock::now() - start;
                   m->record_call(judge, r, took.count());
                   done(std::move(r));
                 });
  }
  bool supports_seed() const override { return inner_->supports_seed(); }
  bool answers_inline() const override { return inner_->answers_inline(); }
  std::uint32_t current_concurrency() const override {
    return inner_->current_concurrency();
  }
  std::uint32_t calls_ahead() const override { return inner_->calls_ahead(); }
  void abort(std::uint64_t call_id) override { inner_->abort(call_id); }

private:
  judge_adapter_ptr inner_;
  std::shared_ptr<daemon_metrics> metrics_;
  std::string judge_;
};

} // namespace

judge_adapter_ptr metered(judge_adapter_ptr inner,
                          std::shared_ptr<daemon_metrics> metrics,
                          std::string judge) {
  return std::make_shared<metered_adapter>(std::move(inner), std::move(metrics),
                                           std::move(judge));
}

} // namespace ij
