#include "core/audit/audit_recount.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

#include "messages/fault_kind.hpp"

namespace ij {

namespace {

using rapidjson::Value;

const Value* member(const Value& obj, const char* name) {
  if (!obj.IsObject())
    return nullptr;
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

caf::error lacks(const char* field) {
  return make_error(errc::bad_input, std::string{"lacks \""} + field
                                       + "\" (or it has the wrong type)");
}

bool read_string(const Value& obj, const char* name, std::string_view& out) {
  auto v = member(obj, name);
  if (!v || !v->IsString())
    return false;
  out = {v->GetString(), v->GetStringLength()};
  return true;
}

bool read_u64(const Value& obj, const char* name, std::uint64_t& out) {
  auto v = member(obj, name);
  if (!v || !v->IsUint64())
    return false;
  out = v->GetUint64();
  return true;
}

bool read_bool(const Value& obj, const char* name, bool& out) {
  auto v = member(obj, name);
  if (!v || !v->IsBool())
    return false;
  out = v->GetBool();
  return true;
}

std::uint64_t fingerprint(std::string_view s) {
  return std::hash<std::string_view>{}(s);
}

bool contains(const std::vector<std::uint64_t>& sorted, std::uint64_t x) {
  return std::binary_search(sorted.begin(), sorted.end(), x);
}

void sort_unique(std::vector<std::uint64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

caf::error says(const char* field, std::uint64_t claimed, std::uint64_t counted,
                const std::string& what) {
  return make_error(errc::bad_input, std::string{"run_end says "} + field + " "
                                       + std::to_string(claimed)
                                       + ", but the records before it hold "
                                       + std::to_string(counted) + " " + what);
}

} // namespace

void audit_recount::note_pair(std::string_view pair_id) {
  auto f = fingerprint(pair_id);
  if (any_pair_ && f == last_pair_)
    return;
  recorded_pairs_.push_back(f);
  last_pair_ = f;
  any_pair_ = true;
}

// A vote or canary record's votes not cast and judge calls.
caf::error audit_recount::add_vote_counts(const Value& r) {
  std::uint64_t n = 0;
  auto counts = member(r, "counts");
  if (!counts || !read_u64(*counts, "not_cast", n))
    return lacks("counts.not_cast");
  not_cast_ += n;
  if (!read_u64(r, "judge_calls", n))
    return lacks("judge_calls");
  vote_calls_ += n;
  return {};
}

void audit_recount::add_manifest(const Value& r) {
  // The judges' workers and adapter ids, for the usage per judge (absent
  // in older manifests: then only the sums are checked).
  if (auto judges = member(r, "judges"); judges && judges->IsArray())
    for (auto& j : judges->GetArray()) {
      std::string_view name, adapter, worker;
      if (read_string(j, "name", name)
          && read_string(j, "adapter_id", adapter)) {
        read_string(j, "worker_id", worker);
        judges_.push_back(
          {std::string{name}, std::string{adapter}, std::string{worker}});
      }
    }
}

caf::error audit_recount::add_judge_call(const Value& r) {
  std::string_view text;
  std::string_view adapter;
  bool failed = false;
  std::uint64_t in = 0, out = 0;
  if (!read_string(r, "pair_id", text))
    return lacks("pair_id");
  if (!read_string(r, "adapter_id", adapter))
    return lacks("adapter_id");
  if (!read_bool(r, "transport_failed", failed))
    return lacks("transport_failed");
  if (!read_u64(r, "input_tokens", in))
    return lacks("input_tokens");
  if (!read_u64(r, "output_tokens", out))
    return lacks("output_tokens");
  std::string_view worker;
  read_string(r, "worker", worker); // null for a vote no worker took
  call_facts facts;
  read_bool(r, "cached", facts.cached);
  std::string_view refused, kind;
  facts.refused_by_breaker =
    read_string(r, "refused_by", refused) && refused == refused_by_breaker_text;
  if (read_string(r, "fault_kind", kind))
    facts.fault = fault_kind_from_string(kind).value_or(fault_kind::none);
  facts.has_worker = !worker.empty();
  routes_.add(route_of(facts));
  note_pair(text);
  auto source = std::string{adapter} + '\n' + std::string{worker};
  for (auto* t : {&calls_, &by_source_[source]}) {
    ++t->calls;
    t->faults += failed;
    t->input_tokens += in;
    t->output_tokens += out;
  }
  return {};
}

caf::error audit_recount::add(audit_type type, const Value& r) {
  std::string_view text;
  switch (type) {
    case audit_type::manifest: add_manifest(r); break;
    case audit_type::judge_call: return add_judge_call(r);
    case audit_type::vote:
      if (!read_string(r, "pair_id", text))
        return lacks("pair_id");
      if (auto err = add_vote_counts(r))
        return err;
      ++votes_;
      screened_ += member(r, "screened") ? 1 : 0;
      flagged_ += member(r, "flags") ? 1 : 0;
      note_pair(text);
      break;
    case audit_type::verdict: {
      std::string_view rule, item;
      if (!read_string(r, "pair_id", text))
        return lacks("pair_id");
      if (!read_string(r, "item", item))
        return lacks("item");
      if (!read_string(r, "rule", rule) || rule.size() != 2 || rule[0] != 'I'
          || rule[1] < '1' || rule[1] > '5')
        return make_error(errc::bad_input, "lacks a \"rule\" from I1 to I5");
      ++verdicts_;
      ++by_rule_[rule[1] - '1'];
      note_pair(text);
      judged_items_.push_back(fingerprint(item));
      break;
    }
    case audit_type::canary:
      // A canary's judge calls are real calls (counted in judge_calls and
      // usage); the canary record stands for its vote record.
      if (!read_string(r, "canary_id", text))
        return lacks("canary_id");
      if (auto err = add_vote_counts(r))
        return err;
      ++canaries_;
      note_pair(text);
      break;
    case audit_type::item_verdict:
      if (!read_string(r, "item", text))
        return lacks("item");
      ++items_;
      closed_items_.push_back(fingerprint(text));
      break;
    case audit_type::rejected: ++rejected_; break;
    case audit_type::vote_moved: ++votes_moved_; break;
    case audit_type::late_reply: ++late_replies_; break;
    default: // resumed, batch, host, bias_alarm, ...: nothing they count
      break;
  }
  return {};
}

caf::error audit_recount::check_usage(const Value& usage) const {
  calls_tally sum;
  // Each usage entry's expected tally, when the manifest maps every adapter
  // seen in the records to a judge named in the usage list.
  std::vector<calls_tally> expected(usage.Size());
  bool per_judge = true;
  for (auto& [source, t] : by_source_) {
    auto cut = source.find('\n');
    std::string_view adapter{source.data(), cut};
    std::string_view worker{source.data() + cut + 1, source.size() - cut - 1};
    // The judge of the worker when the manifest names it (a worker that
    // joined later, on a judge host, by its adapter).
    auto j = std::find_if(judges_.begin(), judges_.end(), [&](auto& x) {
      return !worker.empty() && x.worker == worker;
    });
    if (j == judges_.end())
      j = std::find_if(judges_.begin(), judges_.end(),
                       [&](auto& x) { return x.adapter == adapter; });
    std::string_view name = j == judges_.end() ? adapter
                            : j->name.empty()  ? adapter
                                               : std::string_view{j->name};
    bool found = false;
    for (rapidjson::SizeType i = 0; i < usage.Size() && !found; ++i) {
      std::string_view judge;
      if (read_string(usage[i], "judge", judge) && judge == name) {
        expected[i].calls += t.calls;
        expected[i].faults += t.faults;
        expected[i].input_tokens += t.input_tokens;
        expected[i].output_tokens += t.output_tokens;
        found = true;
      }
    }
    per_judge = per_judge && found;
  }
  for (rapidjson::SizeType i = 0; i < usage.Size(); ++i) {
    std::string_view judge;
    calls_tally u;
    if (!read_string(usage[i], "judge", judge)
        || !read_u64(usage[i], "calls", u.calls)
        || !read_u64(usage[i], "faults", u.faults)
        || !read_u64(usage[i], "input_tokens", u.input_tokens)
        || !read_u64(usage[i], "output_tokens", u.output_tokens))
      return make_error(errc::bad_input,
                        "run_end's usage entry " + std::to_string(i + 1)
                          + " lacks judge, calls, faults, input_tokens or "
                            "output_tokens");
    sum.calls += u.calls;
    sum.faults += u.faults;
    sum.input_tokens += u.input_tokens;
    sum.output_tokens += u.output_tokens;
    if (!per_judge)
      continue;
    auto& e = expected[i];
    std::string who = "usage of judge " + std::string{judge} + ":";
    if (u.calls != e.calls)
      return says((who + " calls").c_str(), u.calls, e.calls,
                  "judge_call records of that judge");
    if (u.faults != e.faults)
      return says((who + " faults").c_str(), u.faults, e.faults,
                  "failed judge calls of that judge");
    if (u.input_tokens != e.input_tokens)
      return says((who + " input_tokens").c_str(), u.input_tokens,
                  e.input_tokens, "input tokens in that judge's records");
    if (u.output_tokens != e.output_tokens)
      return says((who + " output_tokens").c_str(), u.output_tokens,
                  e.output_tokens, "output tokens in that judge's records");
  }
  if (sum.calls != calls_.calls)
    return says("usage calls (summed)", sum.calls, calls_.calls,
                "judge_call records");
  if (sum.faults != calls_.faults)
    return says("usage faults (summed)", sum.faults, calls_.faults,
                "failed judge calls");
  if (sum.input_tokens != calls_.input_tokens)
    return says("usage input_tokens (summed)", sum.input_tokens,
                calls_.input_tokens, "input tokens in judge_call records");
  if (sum.output_tokens != calls_.output_tokens)
    return says("usage output_tokens (summed)", sum.output_tokens,
                calls_.output_tokens, "output tokens in judge_call records");
  return {};
}

// Where the calls went (absent in audits written before issue 20): each
// count against the judge_call records of that route (errc::bad_input, the
// audit being the input, when one differs).
caf::error audit_recount::check_routes(const Value& e) const {
  // Calls no record shows (issue 26: a cancel dropped their replies or
  // aborted them after sending) count as sent; absent before issue 26.
  std::uint64_t unrecorded = 0;
  bool cancel_counts = member(e, "calls_unrecorded") != nullptr;
  if (cancel_counts && !read_u64(e, "calls_unrecorded", unrecorded))
    return lacks("calls_unrecorded");
  for (auto [field, counted, what] :
       {std::tuple{"calls_sent", routes_.sent + unrecorded,
                   cancel_counts
                     ? "judge_call records of calls sent to a backend, "
                       "plus calls_unrecorded"
                     : "judge_call records of calls sent to a backend"},
        std::tuple{"calls_refused_breaker", routes_.refused_breaker,
                   "judge_call records refused by a circuit breaker "
                   "(\"refused_by\":\"breaker\")"},
        std::tuple{"calls_refused_budget", routes_.refused_budget,
                   "judge_call records refused at a budget (fault_kind "
                   "budget)"}}) {
    std::uint64_t n = 0;
    if (!member(e, field))
      continue;
    if (!read_u64(e, field, n))
      return lacks(field);
    if (n != counted)
      return says(field, n, counted, what);
  }
  if (!cancel_counts)
    return caf::error{};
  return check_cancel_counts(e);
}

// What the records cannot recount of a cancel's calls must at least add up:
// every sent call with a record was answered; a sent call not answered was
// aborted.
caf::error audit_recount::check_cancel_counts(const Value& e) const {
  std::uint64_t sent = 0, answered = 0, aborted = 0;
  if (!read_u64(e, "calls_sent", sent))
    return lacks("calls_sent");
  if (!read_u64(e, "calls_answered", answered))
    return lacks("calls_answered");
  if (!read_u64(e, "calls_aborted", aborted))
    return lacks("calls_aborted");
  if (answered < routes_.sent || answered > sent)
    return make_error(errc::bad_input,
                      "run_end says calls_answered " + std::to_string(answered)
                        + ", but " + std::to_string(routes_.sent)
                        + " judge_call records of calls sent precede it and "
                          "calls_sent is "
                        + std::to_string(sent));
  if (sent - answered > aborted)
    return make_error(
      errc::bad_input,
      "run_end says " + std::to_string(sent - answered)
        + " call(s) sent were not answered, but calls_aborted is "
        + std::to_string(aborted));
  return caf::error{};
}

caf::error audit_recount::check_run_end(const Value& e) {
  bool interrupted = false;
  std::uint64_t pairs = 0, rejected = 0, items = 0, open_items = 0,
                judge_calls = 0, calls_skipped = 0, faults = 0;
  auto by_rule = member(e, "by_rule");
  auto usage = member(e, "usage");
  auto unfinished = member(e, "unfinished_pairs");
  if (!read_bool(e, "interrupted", interrupted) || !read_u64(e, "pairs", pairs)
      || !read_u64(e, "rejected", rejected) || !read_u64(e, "items", items)
      || !read_u64(e, "open_items", open_items)
      || !read_u64(e, "judge_calls", judge_calls)
      || !read_u64(e, "calls_skipped", calls_skipped)
      || !read_u64(e, "faults", faults) || !by_rule || !by_rule->IsObject()
      || !usage || !usage->IsArray() || !unfinished || !unfinished->IsArray())
    return make_error(
      errc::bad_input,
      "the run_end record lacks one of interrupted, pairs, rejected, "
      "items, open_items, by_rule, judge_calls, calls_skipped, faults, "
      "usage, unfinished_pairs (or one has the wrong type)");
  if (pairs != verdicts_)
    return says("pairs", pairs, verdicts_, "verdict records");
  for (int i = 0; i < 5; ++i) {
    std::string rule = "I" + std::to_string(i + 1);
    std::uint64_t n = 0;
    if (!read_u64(*by_rule, rule.c_str(), n))
      return make_error(errc::bad_input,
                        "the run_end record's by_rule lacks " + rule);
    if (n != by_rule_[i])
      return says(("by_rule " + rule).c_str(), n, by_rule_[i],
                  "verdict records with rule " + rule);
  }
  if (rejected != rejected_)
    return says("rejected", rejected, rejected_, "rejected records");
  if (items != items_)
    return says("items", items, items_, "item_verdict records");
  if (judge_calls != calls_.calls)
    return says("judge_calls", judge_calls, calls_.calls, "judge_call records");
  if (vote_calls_ != calls_.calls)
    return make_error(errc::bad_input,
                      "the vote records count " + std::to_string(vote_calls_)
                        + " judge calls, but " + std::to_string(calls_.calls)
                        + " judge_call records precede run_end");
  if (votes_ != verdicts_)
    return make_error(errc::bad_input,
                      std::to_string(votes_) + " vote records but "
                        + std::to_string(verdicts_)
                        + " verdict records: each judged pair has one of each");
  if (calls_skipped != not_cast_)
    return says("calls_skipped", calls_skipped, not_cast_,
                "votes not cast (the vote records' not_cast)");
  if (faults != calls_.faults)
    return says("faults", faults, calls_.faults,
                "failed judge calls (transport_failed)");
  if (auto err = check_usage(*usage))
    return err;
  if (auto err = check_routes(e))
    return err;
  // Failover totals (absent in audits written before judge hosts); the
  // guarded pairs (absent before issue 29).
  for (auto [field, counted, what] :
       {std::tuple{"votes_moved", votes_moved_, "vote_moved records"},
        std::tuple{"late_replies", late_replies_, "late_reply records"},
        std::tuple{"screened", screened_, "vote records of screened pairs"},
        std::tuple{"flagged", flagged_,
                   "vote records with planted-verdict flags"}}) {
    std::uint64_t n = 0;
    if (member(e, field) && !read_u64(e, field, n))
      return lacks(field);
    if (member(e, field) && n != counted)
      return says(field, n, counted, what);
  }

  // Written since canaries exist; older run_end records lack it.
  if (auto c = member(e, "canaries")) {
    if (!c->IsUint64())
      return make_error(errc::bad_input, "run_end's canaries is not a count");
    if (c->GetUint64() != canaries_)
      return says("canaries", c->GetUint64(), canaries_, "canary records");
  }

  sort_unique(recorded_pairs_);
  for (auto& id : unfinished->GetArray()) {
    if (!id.IsString())
      return make_error(
        errc::bad_input,
        "run_end's unfinished_pairs holds a value that is not a pair id");
    std::string_view pair{id.GetString(), id.GetStringLength()};
    if (contains(recorded_pairs_, fingerprint(pair)))
      return make_error(
        errc::bad_input,
        "run_end lists pair \"" + std::string{pair}
          + "\" as unfinished, but records of it precede run_end");
  }
  sort_unique(judged_items_);
  sort_unique(closed_items_);
  std::uint64_t open = 0;
  for (auto item : judged_items_)
    open += !contains(closed_items_, item);
  if (open > open_items)
    return says("open_items", open_items, open,
                "items with verdict records but no item_verdict record");
  if (!interrupted) {
    if (!unfinished->Empty())
      return make_error(errc::bad_input,
                        "run_end says the run was not interrupted, but lists "
                          + std::to_string(unfinished->Size())
                          + " unfinished pair(s)");
    if (open_items > 0)
      return make_error(errc::bad_input,
                        "run_end says the run was not interrupted, but leaves "
                          + std::to_string(open_items) + " item(s) open");
  }
  return {};
}

} // namespace ij
