#include "core/config/judge_fields.hpp"

#include <set>
#include <string>

#include "core/prompts/prompt_choice.hpp"

namespace ij {

namespace {

using config::custom;
using config::field;
using config::field_error;
using config::json_writer;
using config::only_when;
using rapidjson::Value;

template <class Get>
field<judge_spec> limit(std::string_view pointer, Get get) {
  return only_when(
    custom<judge_spec>(
      pointer, [get](const Value& v, judge_spec& s) { get(s) = v.GetUint64(); },
      [get](json_writer& w, const judge_spec& s) { w.Uint64(*get(s)); }),
    [get](const judge_spec& s) { return get(s).has_value(); });
}

field<judge_spec> price(std::string_view pointer, double token_prices::*m) {
  return only_when(
    custom<judge_spec>(
      pointer,
      [m](const Value& v, judge_spec& s) {
        if (!s.prices)
          s.prices = token_prices{};
        (*s.prices).*m = v.GetDouble();
      },
      [m](json_writer& w, const judge_spec& s) { w.Double((*s.prices).*m); }),
    [](const judge_spec& s) { return s.prices.has_value(); });
}

} // namespace

// The fields of one judge object (configs/schema.json #/definitions/judge).
const config::table<judge_spec>& judge_fields() {
  using namespace config;
  using J = judge_spec;
  auto batched = [](const J& j) { return j.batch.enabled; };
  static const table<J> fields{
    text<J>(
      "/name", [](auto& j) -> auto& { return j.name; }),
    text<J>(
      "/type", [](auto& j) -> auto& { return j.type; }),
    text<J>(
      "/model", [](auto& j) -> auto& { return j.model; }),
    text<J>(
      "/base_url", [](auto& j) -> auto& { return j.base_url; }),
    real<J>(
      "/temperature", [](auto& j) -> auto& { return j.temperature; }),
    {"/seed",
     [](const Value& v, J& j, const std::string& at) {
       if (!v.IsInt64())
         return field_error(at, "must fit in a signed 64-bit integer");
       j.seed = v.GetInt64();
       return caf::error{};
     },
     [](json_writer& w, const J& j) {
       if (j.seed)
         w.Int64(*j.seed);
       else
         w.Null();
     },
     {}},
    count<J>(
      "/max_tokens", [](auto& j) -> auto& { return j.max_tokens; }),
    duration<J>(
      "/timeout_ms", [](auto& j) -> auto& { return j.timeout; }),
    count<J>(
      "/max_in_flight", [](auto& j) -> auto& { return j.max_in_flight; }),
    // Written only when set, so that runs without it keep their manifest.
    only_when(count<J>(
                "/queue_max", [](auto& j) -> auto& { return j.queue_max; }),
              [](const J& j) { return j.queue_max != 0; }),
    text<J>(
      "/api_key_env", [](auto& j) -> auto& { return j.api_key_env; }),
    text<J>(
      "/ca_file", [](auto& j) -> auto& { return j.ca_file; }),
    count<J>(
      "/max_attempts", [](auto& j) -> auto& { return j.max_attempts; }),
    // Budgets and prices are written only when declared, so that runs
    // without them keep their manifest as it was.
    comment<J>("/budget/_comment"),
    limit(
      "/budget/max_calls", [](auto& j) -> auto& { return j.budget.max_calls; }),
    limit(
      "/budget/max_input_tokens",
      [](auto& j) -> auto& { return j.budget.max_input_tokens; }),
    limit(
      "/budget/max_output_tokens",
      [](auto& j) -> auto& { return j.budget.max_output_tokens; }),
    only_when(
      custom<J>(
        "/budget/max_cost",
        [](const Value& v, J& j) { j.budget.max_cost = v.GetDouble(); },
        [](json_writer& w, const J& j) { w.Double(*j.budget.max_cost); }),
      [](const J& j) { return j.budget.max_cost.has_value(); }),
    comment<J>("/prices/_comment"),
    price("/prices/input", &token_prices::input),
    price("/prices/output", &token_prices::output),
    // Written when it matters (a batched judge) or differs from the
    // default, so that other runs keep their manifest as it was.
    only_when(price("/prices/batch_discount", &token_prices::batch_discount),
              [](const J& j) {
                return j.prices
                       && (j.batch.enabled || j.prices->batch_discount != 0.5);
              }),
    // Written only for a batched judge.
    comment<J>("/batch/_comment"),
    only_when(
      flag<J>(
        "/batch/enabled", [](auto& j) -> auto& { return j.batch.enabled; }),
      batched),
    only_when(count<J>(
                "/batch/max_requests",
                [](auto& j) -> auto& { return j.batch.max_requests; }),
              batched),
    only_when(duration<J>(
                "/batch/max_wait_ms",
                [](auto& j) -> auto& { return j.batch.max_wait; }),
              batched),
    only_when(
      duration<J>(
        "/batch/poll_ms", [](auto& j) -> auto& { return j.batch.poll; }),
      batched),
    only_when(text<J>(
                "/batch/on_failure",
                [](auto& j) -> auto& { return j.batch.on_failure; }),
              batched),
    only_when(
      custom<J>(
        "/batch/deadline_ms",
        [](const Value& v, J& j) {
          j.batch.deadline = std::chrono::milliseconds(v.GetUint64());
        },
        [](json_writer& w, const J& j) { w.Int64(j.batch.deadline->count()); }),
      [](const J& j) {
        return j.batch.enabled && j.batch.deadline.has_value();
      }),
    comment<J>("/breaker/_comment"),
    flag<J>(
      "/breaker/enabled", [](auto& j) -> auto& { return j.breaker.enabled; }),
    count<J>(
      "/breaker/failures", [](auto& j) -> auto& { return j.breaker.failures; }),
    duration<J>(
      "/breaker/cooldown_ms",
      [](auto& j) -> auto& { return j.breaker.cooldown; }),
    // Written only when set, as budgets are.
    only_when(flag<J>(
                "/logprobs", [](auto& j) -> auto& { return j.logprobs; }),
              [](const J& j) { return j.logprobs; }),
    only_when(
      custom<J>(
        "/constrain",
        [](const Value& v, J& j) {
          j.constrain =
            reply_constraint_of(v.GetString()).value_or(reply_constraint::none);
        },
        [](json_writer& w, const J& j) {
          auto c = to_string(j.constrain);
          w.String(c.data(), static_cast<rapidjson::SizeType>(c.size()));
        }),
      [](const J& j) { return j.constrain != reply_constraint::none; }),
    // Written only when not the canonical prompt (issue 29), so that other
    // runs keep their manifest as it was.
    only_when(field<J>{"/prompt",
                       [](const Value& v, J& j, const std::string& at) {
                         return read_prompt_choice(v, j.prompt, at);
                       },
                       [](json_writer& w, const J& j) {
                         write_prompt_choice(w, j.prompt);
                       },
                       {}},
              [](const J& j) { return j.prompt != prompt_choice{}; }),
    only_when(field<J>{"/non_numeric_prompt",
                       [](const Value& v, J& j, const std::string& at) {
                         prompt_choice p;
                         if (auto err = read_prompt_choice(v, p, at))
                           return err;
                         j.non_numeric_prompt = std::move(p);
                         return caf::error{};
                       },
                       [](json_writer& w, const J& j) {
                         write_prompt_choice(w, *j.non_numeric_prompt);
                       },
                       {}},
              [](const J& j) { return j.non_numeric_prompt.has_value(); }),
    comment<J>("/_comment"),
  };
  return fields;
}

caf::error read_judges(const Value& v, run_config& cfg, const std::string& at) {
  cfg.judges.clear();
  std::set<std::string> names;
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    auto here = at + "/" + std::to_string(i);
    judge_spec spec;
    if (auto err = config::read_fields(v[i], spec, judge_fields(), here))
      return err;
    if (spec.name.empty())
      spec.name = spec.type + ":" + spec.model;
    if (!names.insert(spec.name).second)
      return field_error(here + (v[i].HasMember("name") ? "/name" : ""),
                         "duplicate judge name \"" + spec.name
                           + "\" (give each judge its own \"name\")");
    cfg.judges.push_back(std::move(spec));
  }
  return caf::error{};
}

void write_judges(json_writer& w, const run_config& cfg) {
  w.StartArray();
  for (auto& j : cfg.judges)
    config::write_fields(w, j, judge_fields());
  w.EndArray();
}

} // namespace ij
