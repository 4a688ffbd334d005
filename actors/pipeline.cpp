#include "actors/pipeline.hpp"

#include <algorithm>
#include <iostream>
#include <utility>

#include <caf/actor_system.hpp>
#include <caf/sec.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "actors/audit_file.hpp"
#include "actors/audit_logger.hpp"
#include "actors/judge.hpp"
#include "actors/run_manifest.hpp"
#include "actors/verdict.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "core/audit_record.hpp"
#include "core/verdict_table.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using self_ptr = pipeline_impl_actor::stateful_pointer<pipeline_state>;
using phase = pipeline_state::phase;

caf::error failure(std::string why) {
  return caf::make_error(caf::sec::runtime_error, std::move(why));
}

void try_finish(self_ptr self);

// Calls, faults and tokens of one pair's judge calls.
void account_calls(pipeline_state& st, const std::vector<judge_record>& records,
                   std::uint64_t not_cast) {
  auto& s = st.summary;
  s.judge_calls += records.size();
  s.calls_skipped += not_cast;
  for (auto& rec : records) {
    auto i = st.usage_index.find(rec.adapter_id);
    if (i == st.usage_index.end()) {
      i = st.usage_index.emplace(rec.adapter_id, s.usage.size()).first;
      s.usage.push_back(judge_usage{rec.adapter_id, 0, 0, 0, 0});
    }
    auto& u = s.usage[i->second];
    ++u.calls;
    u.input_tokens += rec.input_tokens;
    u.output_tokens += rec.output_tokens;
    if (rec.transport_failed) {
      ++u.faults;
      ++s.faults;
    }
  }
}

// Answers pair `id` once; a pair no longer in flight (answered at run end)
// is left alone.
template <class T>
void answer_pair_request(self_ptr self, std::uint64_t id, T&& x) {
  auto& st = self->state;
  auto i = st.in_flight.find(id);
  if (i == st.in_flight.end()) {
    try_finish(self); // a write it held back may have been the last
    return;
  }
  auto promise = std::move(i->second.promise);
  st.in_flight.erase(i);
  promise.deliver(std::forward<T>(x));
  try_finish(self);
}

// One pair: coordinator -> verdict actor -> logger -> requester.
void judge_pair(self_ptr self, answer_pair pair,
                caf::typed_response_promise<single_verdict> promise) {
  auto& st = self->state;
  auto id = st.next_pair++;
  st.in_flight.emplace(id, pipeline_state::judged_pair{pair.id, promise});
  auto fail = [=](caf::error& err) {
    answer_pair_request(self, id, std::move(err));
  };
  self->request(st.coordinator, caf::infinite, pair)
    .then(
      [=](vote_result& vr) mutable {
        auto& st = self->state;
        if (st.in_flight.count(id) == 0)
          return; // the run ended (interrupted) meanwhile
        // Render the records now; the verdict actor needs no records. The
        // calls are counted only once their records are written (below), so
        // that run_end counts exactly the records before it.
        audit_batch batch;
        batch.durable = true;
        batch.entries.reserve(vr.records.size() + 2);
        for (auto& rec : vr.records)
          batch.entries.push_back(
            {std::string{audit_type::judge_call}, judge_call_body(rec)});
        batch.entries.push_back(
          {std::string{audit_type::vote}, vote_body(pair, vr)});
        auto records = std::move(vr.records);
        vr.records.clear();
        std::uint64_t not_cast = vr.counts.not_cast;
        self->request(st.verdicts, caf::infinite, pair, std::move(vr))
          .then(
            [=, batch = std::move(batch),
             records = std::move(records)](single_verdict& v) mutable {
              auto& st = self->state;
              if (st.in_flight.count(id) == 0)
                return;
              // After an interrupted finish no pair starts being written:
              // it stays unfinished, with no record in the audit.
              if (st.finish_requested && st.summary.interrupted)
                return;
              batch.entries.push_back(
                {std::string{audit_type::verdict}, verdict_body(pair, v)});
              // A batch at the logger holds back run_end (try_finish), so
              // its records are counted and its verdict released even when
              // the run is interrupted meanwhile.
              ++st.pending_writes;
              self->request(st.logger, caf::infinite, std::move(batch))
                .then(
                  [=, records = std::move(records)](std::uint64_t) mutable {
                    auto& st = self->state;
                    --st.pending_writes;
                    account_calls(st, records, not_cast);
                    ++st.summary.pairs;
                    ++st.summary.by_rule[static_cast<int>(v.rule) - 1];
                    answer_pair_request(self, id, std::move(v));
                  },
                  [=](caf::error& err) {
                    --self->state.pending_writes;
                    answer_pair_request(self, id, std::move(err));
                  });
            },
            fail);
      },
      fail);
}

void write_run_end(self_ptr self) {
  auto& st = self->state;
  st.state = phase::finished;
  std::vector<std::string> unfinished;
  for (auto& kv : st.in_flight) {
    unfinished.push_back(kv.second.pair_id);
    kv.second.promise.deliver(failure("the run ended (interrupted) before "
                                      "the verdict of pair "
                                      + kv.second.pair_id + " was written"));
  }
  st.in_flight.clear();
  for (auto& w : st.waiting) {
    unfinished.push_back(w.pair.id);
    w.promise.deliver(failure("the run ended (interrupted) before pair "
                              + w.pair.id + " was judged"));
  }
  st.waiting.clear();
  std::sort(unfinished.begin(), unfinished.end());
  audit_batch batch;
  batch.last = true;
  batch.durable = true;
  batch.entries.push_back(
    {std::string{audit_type::run_end},
     run_end_body(st.summary, unfinished, st.open_items)});
  self->request(st.logger, caf::infinite, std::move(batch))
    .then(
      [=](std::uint64_t seq) {
        auto& st = self->state;
        st.summary.audit_lines = seq;
        self->request(st.logger, caf::infinite, final_hash_atom::value)
          .then(
            [=](std::string& hash) {
              auto& st = self->state;
              st.summary.final_hash = std::move(hash);
              st.finish_promise.deliver(st.summary);
              self->quit();
            },
            [=](caf::error& err) {
              self->state.finish_promise.deliver(std::move(err));
              self->quit();
            });
      },
      [=](caf::error& err) {
        self->state.finish_promise.deliver(std::move(err));
        self->quit();
      });
}

void try_finish(self_ptr self) {
  auto& st = self->state;
  if (!st.finish_requested || st.state != phase::running)
    return;
  if (!st.summary.interrupted && (!st.in_flight.empty() || !st.waiting.empty()))
    return;
  if (!st.verdicts_synced) {
    // Every item verdict the verdict actor sent is ahead of this reply.
    if (!st.sync_requested) {
      st.sync_requested = true;
      self->request(st.verdicts, caf::infinite, finish_atom::value)
        .then(
          [=](std::uint32_t open) {
            self->state.open_items = open;
            self->state.verdicts_synced = true;
            try_finish(self);
          },
          [=](caf::error&) {
            self->state.verdicts_synced = true;
            try_finish(self);
          });
    }
    return;
  }
  if (st.pending_writes > 0)
    return;
  write_run_end(self);
}

std::string usage_name(const judge_binding& j) {
  if (!j.spec.name.empty())
    return j.spec.name;
  return j.adapter ? j.adapter->id() : j.spec.type + ":" + j.spec.model;
}

} // namespace

pipeline_impl_actor::behavior_type
pipeline(pipeline_impl_actor::stateful_pointer<pipeline_state> self,
         pipeline_settings settings, std::vector<std::string> warnings,
         int fd) {
  auto& st = self->state;
  st.settings = std::move(settings);
  st.warnings = std::move(warnings);
  auto& cfg = st.settings;
  if (cfg.detached_logger)
    st.logger = self->spawn<caf::detached>(audit_logger, fd, cfg.audit_path,
                                           cfg.flush);
  else
    st.logger = self->spawn(audit_logger, fd, cfg.audit_path, cfg.flush);
  std::vector<vote_judge> judges;
  std::vector<judge_actor> judge_handles;
  for (auto& j : cfg.judges) {
    judge_actor handle = self->spawn(judge, j.spec, j.adapter);
    judge_handles.push_back(handle);
    auto adapter_id = j.adapter ? j.adapter->id() : std::string{};
    judges.push_back(vote_judge{handle, adapter_id, j.spec.model,
                                j.spec.temperature, j.spec.seed,
                                std::max<std::uint32_t>(j.spec.max_in_flight,
                                                        1)});
    if (st.usage_index.emplace(adapter_id, st.summary.usage.size()).second)
      st.summary.usage.push_back(judge_usage{usage_name(j), 0, 0, 0, 0});
  }
  vote_settings vs;
  vs.votes = cfg.votes;
  vs.order_balancing = cfg.order_balancing;
  vs.abstain_as_neither = cfg.abstain_as_neither;
  vs.deadline = cfg.vote_deadline;
  st.coordinator = self->spawn(vote_coordinator, std::move(judges), vs);
  st.verdicts = self->spawn(verdict, cfg.stats,
                            caf::actor_cast<caf::actor_addr>(self));
  // Whatever ends the pipeline (finish, or its last handle dropped) ends the
  // actors it spawned; the logger's exit closes the file.
  self->attach_functor([logger = st.logger, coordinator = st.coordinator,
                        verdicts = st.verdicts,
                        judge_handles](const caf::error&) {
    caf::anon_send_exit(logger, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(coordinator, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(verdicts, caf::exit_reason::user_shutdown);
    for (auto& j : judge_handles)
      caf::anon_send_exit(j, caf::exit_reason::user_shutdown);
  });
  return {
    [=](start_atom) -> caf::result<std::uint64_t> {
      auto& st = self->state;
      if (st.state != phase::idle)
        return failure("the run has already started");
      st.state = phase::starting;
      auto promise = self->make_response_promise<std::uint64_t>();
      audit_batch batch;
      batch.durable = true;
      batch.entries.push_back(
        {std::string{audit_type::manifest},
         manifest_body(st.settings, st.warnings, wall_clock_ms())});
      self->request(st.logger, caf::infinite, std::move(batch))
        .then(
          [=](std::uint64_t seq) mutable {
            auto& st = self->state;
            st.state = phase::running;
            promise.deliver(seq);
            auto waiting = std::move(st.waiting);
            st.waiting.clear();
            for (auto& w : waiting)
              judge_pair(self, std::move(w.pair), std::move(w.promise));
            try_finish(self);
          },
          [=](caf::error& err) mutable {
            auto& st = self->state;
            st.state = phase::finished;
            for (auto& w : st.waiting)
              w.promise.deliver(err);
            st.waiting.clear();
            if (st.finish_requested)
              st.finish_promise.deliver(err);
            promise.deliver(std::move(err));
            self->quit();
          });
      return promise;
    },
    [=](answer_pair& pair) -> caf::result<single_verdict> {
      auto& st = self->state;
      switch (st.state) {
        case phase::idle:
          return failure("the run has not started: no pair is judged before "
                         "the manifest is written");
        case phase::finished:
          return failure("the run has ended: pair " + pair.id
                         + " was not judged");
        default:
          break;
      }
      if (st.finish_requested)
        return failure("the run is finishing: pair " + pair.id
                       + " was not judged");
      auto promise = self->make_response_promise<single_verdict>();
      if (st.state == phase::starting)
        st.waiting.push_back({std::move(pair), promise});
      else
        judge_pair(self, std::move(pair), promise);
      return promise;
    },
    [=](rejected_atom, std::string& file, std::uint64_t line,
        std::string& reason) -> caf::result<std::uint64_t> {
      auto& st = self->state;
      if (st.state == phase::idle || st.state == phase::finished)
        return failure("no run is open to record a rejected line");
      auto promise = self->make_response_promise<std::uint64_t>();
      ++st.pending_writes;
      audit_batch batch;
      batch.entries.push_back({std::string{audit_type::rejected},
                               rejected_body(file, line, reason)});
      self->request(st.logger, caf::infinite, std::move(batch))
        .then(
          [=](std::uint64_t seq) mutable {
            auto& st = self->state;
            --st.pending_writes;
            ++st.summary.rejected;
            promise.deliver(seq);
            try_finish(self);
          },
          [=](caf::error& err) mutable {
            --self->state.pending_writes;
            promise.deliver(std::move(err));
            try_finish(self);
          });
      return promise;
    },
    [=](item_total_atom a, std::string& item, std::uint32_t count) {
      if (self->state.state != phase::finished)
        self->send(self->state.verdicts, a, std::move(item), count);
    },
    [=](finish_atom, bool interrupted) -> caf::result<run_summary> {
      auto& st = self->state;
      if (st.state == phase::idle)
        return failure("the run has not started");
      if (st.finish_requested || st.state == phase::finished)
        return failure("the run is already finishing");
      st.finish_requested = true;
      st.summary.interrupted = interrupted;
      st.finish_promise = self->make_response_promise<run_summary>();
      try_finish(self);
      return st.finish_promise;
    },
    [=](statistical_verdict& v) {
      auto& st = self->state;
      if (st.state == phase::finished)
        return; // not audited, so not released
      ++st.pending_writes;
      audit_batch batch;
      batch.durable = true;
      batch.entries.push_back(
        {std::string{audit_type::item_verdict}, item_verdict_body(v)});
      self->request(st.logger, caf::infinite, std::move(batch))
        .then(
          [=](std::uint64_t) mutable {
            auto& st = self->state;
            --st.pending_writes;
            ++st.summary.items;
            if (st.settings.listener)
              caf::anon_send(st.settings.listener, std::move(v));
            try_finish(self);
          },
          [=](caf::error& err) {
            --self->state.pending_writes;
            std::cerr << "invjudge: the verdict of item " << v.item
                      << " was not released: "
                      << render_error(err) << '\n';
            try_finish(self);
          });
    },
  };
}

std::vector<std::string> pipeline_warnings(const pipeline_settings& settings) {
  std::vector<std::string> out;
  if (settings.votes.votes <= 1)
    return out;
  for (auto& j : settings.judges) {
    if (j.spec.temperature == 0.0 && j.adapter && !j.adapter->supports_seed())
      out.push_back("judge " + usage_name(j) + ": "
                    + std::to_string(settings.votes.votes)
                    + " votes at temperature 0 on a backend without seed "
                      "support will likely all repeat the first answer "
                      "(wasted calls)");
  }
  return out;
}

caf::expected<pipeline_actor> spawn_pipeline(caf::actor_system& sys,
                                             pipeline_settings settings) {
  if (settings.judges.empty())
    return failure("no judge configured");
  for (auto& j : settings.judges)
    if (!j.adapter)
      return failure("judge " + usage_name(j) + " has no adapter");
  if (auto err = validate(settings.votes))
    return failure(*err);
  if (auto err = validate(settings.stats))
    return failure(*err);
  if (settings.vote_deadline.count() <= 0)
    return failure("the vote deadline must be positive");
  if (settings.audit_path.empty())
    return failure("no audit file given");
  std::string why;
  int fd = open_audit_file(settings.audit_path, why);
  if (fd < 0)
    return failure(why);
  auto warnings = pipeline_warnings(settings);
  for (auto& w : warnings)
    std::cerr << "invjudge: warning: " << w << '\n';
  pipeline_impl_actor p =
    sys.spawn(pipeline, std::move(settings), std::move(warnings), fd);
  return pipeline_actor{p};
}

} // namespace ij
