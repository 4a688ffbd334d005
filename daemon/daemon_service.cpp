#include "daemon/daemon_service.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include <boost/beast/http.hpp>

#include "actors/judge_directory.hpp"
#include "actors/local_workers.hpp"
#include "actors/run_session.hpp"
#include "adapters/adapter_factory.hpp"
#include "core/wall_clock.hpp"
#include "core/audit_record.hpp"
#include "core/judge_spec.hpp"
#include "core/run_tag.hpp"
#include "daemon/pairs_file_reader.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/run_request.hpp"
#include "messages/error.hpp"

namespace ij {

namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

// A query parameter's value as a number: `fallback` when absent, false
// when it is not digits (or too long for 64 bits).
bool number_param(const std::string& query, std::string_view name,
                  std::uint64_t fallback, std::uint64_t& value) {
  value = fallback;
  std::string_view rest = query;
  while (!rest.empty()) {
    auto amp = rest.find('&');
    auto pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    auto eq = pair.find('=');
    if (pair.substr(0, eq) != name)
      continue;
    auto v = eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    if (v.empty() || v.find_first_not_of("0123456789") != std::string_view::npos
        || v.size() > 19)
      return false;
    value = std::stoull(std::string{v});
    return true;
  }
  return true;
}

bool final_state(const std::string& state) {
  return state == "done" || state == "cancelled" || state == "failed";
}

bool pairs_media_type(const http_request& req) {
  auto type = media_type(header_value(req, http::field::content_type));
  return type == "application/x-ndjson" || type == "application/jsonl"
         || type == "application/x-jsonlines" || type == "text/plain";
}

error_reply wrong_pairs_type(const http_request& req) {
  return {415, "unsupported_media_type",
          "pairs are JSON Lines: application/x-ndjson, not '"
            + std::string{req[http::field::content_type]} + "'", {}};
}

error_reply unauthorized() {
  return {401, "unauthorized",
          "a valid 'Authorization: Bearer TOKEN' header is needed", {}};
}

error_reply run_ended(const run_row& row) {
  return {409, "run_ended", "run " + row.id + " has ended (" + row.state + ")", {}};
}

// The answer to a failure of the daemon's own: its code says the status
// (the configuration: 400; the run's state: 409 with `conflict` as the
// JSON code, as docs/openapi.yaml names it per endpoint; the state on disk
// and anything else: 500).
error_reply reply_of(const caf::error& err,
                     const char* conflict = "run_ended") {
  auto text = context_of(err);
  if (err.category() == caf::atom("ij")) {
    switch (static_cast<errc>(err.code())) {
      case errc::bad_config:
        return {400, "bad_config", text, {}};
      case errc::run_ended:
      case errc::run_state:
        return {409, conflict, text, {}};
      default:
        break;
    }
  }
  return {500, "state_failed", text, {}};
}

upload_view view_of(const daemon_run::upload_result& up) {
  return upload_view{up.accepted, up.rejected};
}

// POST /v1/runs/{id}/pairs streamed: each piece goes to the run as it
// arrives.
class pairs_stream : public body_stream {
public:
  explicit pairs_stream(std::shared_ptr<daemon_run> run) : run_(std::move(run)) {
  }
  ~pairs_stream() override {
    if (!finished_) // cut off: its complete lines stay; nobody to tell
      run_->end_upload(st_, false);
  }
  void chunk(std::string_view data) override {
    run_->upload_piece(data, st_);
  }
  http_response finish() override {
    finished_ = true;
    api_result result = error_reply{};
    if (auto err = run_->end_upload(st_, true))
      result = reply_of(err, "input_closed");
    else
      result = view_of(st_.result);
    return std::get<http_response>(render_result(result));
  }

private:
  std::shared_ptr<daemon_run> run_;
  daemon_run::upload_state st_;
  bool finished_ = false;
};

} // namespace

daemon_service::daemon_service(caf::actor_system& sys, daemon_options options)
  : sys_(sys), options_(std::move(options)) {
}

caf::expected<std::unique_ptr<daemon_service>>
daemon_service::open(caf::actor_system& sys, daemon_options options) {
  std::unique_ptr<daemon_service> d{new daemon_service(sys, std::move(options))};
  auto& dir = d->options_.state_dir;
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/runs").c_str(), 0755);
  struct stat st {};
  if (::stat((dir + "/runs").c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return make_error(errc::io_failed, "cannot use the state directory " + dir
                                         + ": " + std::strerror(errno));
  auto store = state_store::open(dir);
  if (!store)
    return std::move(store.error());
  d->store_ = std::move(*store);
  // Its own connection to the same database: batched judges record from
  // their own threads.
  auto journal = batch_state_journal::open(dir + "/state.sqlite");
  if (!journal)
    return std::move(journal.error());
  d->batch_journal_ = std::move(*journal);
  d->store_->on_change(
    [events = &d->events_](const std::string& id) { events->changed(id); });
  if (!d->options_.cache.path.empty()) {
    auto cache = response_cache::open(d->options_.cache.path,
                                      d->options_.cache.ttl,
                                      d->options_.cache.max_bytes);
    if (!cache)
      return std::move(cache.error());
    d->cache_ = std::move(*cache);
  }
  d->ctx_.sys = &sys;
  d->ctx_.directory = spawn_judge_directory(sys);
  d->ctx_.store = d->store_.get();
  d->ctx_.metrics = std::make_shared<daemon_metrics>();
  d->ctx_.state_dir = dir;
  d->ctx_.reader = spawn_pairs_file_reader(sys);
  d->resume_runs();
  return d;
}

// Every unfinished run resumes by itself; one that cannot is failed, and
// why is kept for the log.
void daemon_service::resume_runs() {
  for (auto& row : store_->runs()) {
    if (row.state != "open" && row.state != "running")
      continue;
    auto run = resume(row);
    if (!run) {
      row.state = "failed";
      row.error = "could not resume after a restart: " + context_of(run.error());
      row.finished_ms = wall_clock_ms();
      store_->update_run(row); // not checked: it is failed in the log too
      resume_failures_.push_back(row.id + ": " + row.error);
      continue;
    }
    runs_[row.id] = std::move(*run);
    ++resumed_;
  }
}

caf::expected<std::shared_ptr<daemon_run>>
daemon_service::resume(const run_row& row) {
  auto cfg = parse_config(row.config_json, "run " + row.id);
  if (!cfg)
    return std::move(cfg.error());
  if (auto err = ensure_workers(*cfg))
    return err;
  if (auto err = adopt_batches(row.id))
    return err;
  return daemon_run::restart(ctx_, row);
}

// The judge's thread takes the marks before any call of the restarted run
// can reach it (calls are posted after, to the same thread): what the run
// had submitted is polled and its results kept, never submitted again.
caf::error daemon_service::adopt_batches(const std::string& run_id) {
  std::vector<std::shared_ptr<batch_judge>> judges;
  {
    std::lock_guard<std::mutex> guard{workers_mtx_};
    judges = batch_judges_;
  }
  if (judges.empty())
    return caf::none;
  auto marks = batch_journal_->open_marks_of(run_id);
  if (!marks)
    return std::move(marks.error());
  if (marks->empty())
    return caf::none;
  // Each judge takes its own marks and skips batches it already holds (a
  // batch shared by two resumed runs is adopted once).
  for (auto& j : judges)
    j->adopt(*marks);
  return caf::none;
}

// Not waited for: the reply does not depend on the provider's answer; a
// batch whose cancel is lost ends at the provider by itself (its journal
// marks say so at the next poll or restart).
void daemon_service::cancel_batches(const std::string& run_id) {
  std::vector<std::shared_ptr<batch_judge>> judges;
  {
    std::lock_guard<std::mutex> guard{workers_mtx_};
    judges = batch_judges_;
  }
  auto tag = run_tag_of(run_id);
  for (auto& j : judges)
    j->cancel_run(tag);
}

daemon_service::~daemon_service() {
  shutdown();
  caf::anon_send_exit(ctx_.directory, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(ctx_.reader, caf::exit_reason::user_shutdown);
}

void daemon_service::shutdown() {
  std::map<std::string, std::shared_ptr<daemon_run>> runs;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    runs.swap(runs_);
  }
  for (auto& [id, run] : runs)
    run->shutdown();
  for (auto& [id, run] : runs)
    run->wait();
  if (store_)
    store_->checkpoint();
}

bool daemon_service::authorized(const http_request& req) const {
  return options_.token.empty()
         || bearer_matches(header_value(req, http::field::authorization), options_.token);
}

// A worker for every judge of `cfg` that no worker serves yet: judges are
// shared by every run (and their calls metered and, with a cache, cached).
caf::error daemon_service::ensure_workers(const run_config& cfg) {
  auto bindings = bind_judges(cfg, batch_journal_);
  if (!bindings)
    return std::move(bindings.error());
  std::lock_guard<std::mutex> guard{workers_mtx_};
  std::vector<judge_binding> fresh;
  for (auto& b : *bindings) {
    auto id = judge_id_of(b.spec);
    if (!served_judges_.insert(id).second)
      continue;
    auto name = b.spec.name.empty() ? b.spec.type + ":" + b.spec.model
                                    : b.spec.name;
    auto inner = with_cache(b.adapter, cache_);
    b.adapter = metered(inner, ctx_.metrics, name);
    ctx_.metrics->watch_judge(name, b.adapter, b.spec.max_in_flight);
    if (b.spec.prices)
      ctx_.metrics->price_judge(name, *b.spec.prices);
    if (b.batch) {
      batch_judges_.push_back(b.batch);
      ctx_.metrics->watch_batches(b.batch);
    }
    fresh.push_back(std::move(b));
  }
  if (fresh.empty())
    return caf::none;
  auto started = start_local_workers(sys_, ctx_.directory, std::move(fresh));
  if (!started) // a 400 as before: the judges the configuration names
    return make_error(errc::bad_config, "cannot start the judges: "
                                          + render_error(started.error()));
  return caf::none;
}

std::shared_ptr<daemon_run> daemon_service::find(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto it = runs_.find(id);
  return it == runs_.end() ? nullptr : it->second;
}

daemon_service::handler_fn daemon_service::handler_of(api_endpoint e) {
  switch (e) {
  case api_endpoint::health:
    return &daemon_service::health;
  case api_endpoint::metrics:
    return &daemon_service::metrics;
  case api_endpoint::create_run:
    return &daemon_service::create_run;
  case api_endpoint::list_runs:
    return &daemon_service::list_runs;
  case api_endpoint::get_run:
    return &daemon_service::get_run;
  case api_endpoint::cancel_run:
    return &daemon_service::cancel_run;
  case api_endpoint::upload_pairs:
    return &daemon_service::upload_pairs;
  case api_endpoint::close_run:
    return &daemon_service::close_run;
  case api_endpoint::verdicts:
    return &daemon_service::verdicts;
  case api_endpoint::audit:
    return &daemon_service::audit;
  }
  return nullptr; // not reached: every endpoint is above (-Wswitch)
}

std::optional<run_row> daemon_service::lookup(const std::string& id,
                                              std::shared_ptr<daemon_run>& run) {
  run = find(id);
  return run ? std::optional<run_row>{run->row()} : store_->run(id);
}

http_reply daemon_service::handle(const http_request& req) {
  std::string target{req.target()};
  auto q = target.find('?');
  auto path = target.substr(0, q);
  auto match = api_routes().find(req.method(), path);
  bool open = match.found && !match.found->handler.needs_token;
  if (!open && !authorized(req))
    return render_result(unauthorized());
  if (!match.found && match.allowed.empty())
    return render_result(
      error_reply{404, "not_found", "no such endpoint: " + path});
  if (!match.found) {
    std::string allow;
    for (auto m : match.allowed)
      allow += (allow.empty() ? "" : ", ") + std::string{http::to_string(m)};
    return render_result(error_reply{405, "method_not_allowed",
                                   std::string{req.method_string()}
                                     + " is not allowed on " + path
                                     + " (allowed: " + allow + ")",
                                   allow});
  }
  api_request r{req, std::move(match.params),
                q == std::string::npos ? std::string{} : target.substr(q + 1)};
  return render_result((this->*handler_of(match.found->handler.endpoint))(r));
}

api_result daemon_service::health(const api_request&) {
  return health_view{};
}

api_result daemon_service::metrics(const api_request&) {
  std::map<std::string, std::uint64_t> states, counts;
  for (auto s : {"open", "running", "done", "cancelled", "failed"})
    states[s] = 0;
  for (auto& row : store_->runs()) {
    auto run = find(row.id);
    auto now = run ? run->row() : row;
    ++states[now.state];
    add_counts(now.counts_json, counts);
  }
  return metrics_text{ctx_.metrics->render(states, counts, events_.waiting())};
}

api_result daemon_service::create_run(const api_request& req) {
  auto parsed = parse_run_request(header_value(req.http, http::field::content_type),
                                  req.http.body());
  if (auto* e = std::get_if<error_reply>(&parsed))
    return *e;
  auto& body = std::get<run_request>(parsed);
  if (auto err = load_run_calibration(body))
    return reply_of(err);
  if (auto err = load_run_prompts(body))
    return reply_of(err);
  // The binding's errors already name their source ("/config: ...").
  if (auto err = ensure_workers(body.config))
    return reply_of(err);
  run_row row;
  row.id = make_run_id();
  row.name = body.name;
  row.config_json = body.config_text;
  row.created_ms = wall_clock_ms();
  row.counts_json = "{}";
  auto run = daemon_run::create(ctx_, row, std::move(body.config));
  if (!run)
    return reply_of(run.error());
  {
    std::lock_guard<std::mutex> guard{mtx_};
    runs_[row.id] = *run;
  }
  return run_view{(*run)->row(), 201};
}

api_result daemon_service::list_runs(const api_request&) {
  run_list out;
  for (auto& row : store_->runs()) {
    auto run = find(row.id);
    out.rows.push_back(run ? run->row() : row);
  }
  return out;
}

api_result daemon_service::get_run(const api_request& req) {
  auto& id = req.params.get("id");
  std::shared_ptr<daemon_run> run;
  auto stored = lookup(id, run);
  if (!stored)
    return error_reply{404, "unknown_run", "no run " + id};
  return run_view{*stored};
}

api_result daemon_service::cancel_run(const api_request& req) {
  auto& id = req.params.get("id");
  std::shared_ptr<daemon_run> run;
  auto stored = lookup(id, run);
  if (!stored)
    return error_reply{404, "unknown_run", "no run " + id};
  if (!run || run->ended())
    return run_ended(*stored);
  run->cancel();
  cancel_batches(id);
  return run_view{run->row()};
}

// The whole body at hand (the server streams uploads to open_stream; this
// serves a server without a stream opener).
api_result daemon_service::upload_pairs(const api_request& req) {
  auto& id = req.params.get("id");
  std::shared_ptr<daemon_run> run;
  auto stored = lookup(id, run);
  if (!stored)
    return error_reply{404, "unknown_run", "no run " + id};
  if (!pairs_media_type(req.http))
    return wrong_pairs_type(req.http);
  if (!run || run->ended())
    return run_ended(*stored);
  auto up = run->upload(req.http.body());
  if (!up)
    return reply_of(up.error(), "input_closed");
  return view_of(*up);
}

api_result daemon_service::close_run(const api_request& req) {
  auto& id = req.params.get("id");
  std::shared_ptr<daemon_run> run;
  auto stored = lookup(id, run);
  if (!stored)
    return error_reply{404, "unknown_run", "no run " + id};
  if (!run)
    return error_reply{409, "run_ended",
                       "run " + id + " has ended (" + stored->state + ")"};
  if (auto err = run->close())
    return reply_of(err, "run_ended");
  return run_view{run->row()};
}

api_result daemon_service::verdicts(const api_request& req) {
  auto& id = req.params.get("id");
  std::uint64_t after = 0, wait_ms = 0;
  if (!number_param(req.query, "after", 0, after))
    return error_reply{400, "bad_request",
                       "after must be a sequence number (digits)"};
  if (!number_param(req.query, "wait_ms", 0, wait_ms) || wait_ms > max_wait_ms)
    return error_reply{400, "bad_request",
                       "wait_ms must be a number of milliseconds from 0 to "
                         + std::to_string(max_wait_ms)};
  // The version first: a line stored after it wakes the wait below.
  auto seen = events_.version(id);
  auto lines = verdicts_after(id, after);
  auto* found = std::get_if<verdict_lines>(&lines);
  if (!found || wait_ms == 0 || !found->lines.empty() || final_state(found->state))
    return lines;
  // Nothing yet: answer when the run changes (lines stored, its end) or
  // at wait_ms, without holding a server thread.
  // The ticket lives as long as the reply waits (held by its answer).
  auto ticket = std::make_shared<run_events::ticket>();
  return deferred_result{
    std::chrono::milliseconds(wait_ms),
    [this, id, seen, ticket](std::function<void()> wake) {
      *ticket = events_.wait(id, seen, std::move(wake));
    },
    [this, id, after, ticket] {
      ticket->reset();
      return verdicts_after(id, after);
    }};
}

// The lines after `after` and the run's state read before them (so that a
// final state means these lines are the last).
api_result daemon_service::verdicts_after(const std::string& id,
                                          std::uint64_t after) {
  std::shared_ptr<daemon_run> run;
  auto stored = lookup(id, run);
  if (!stored)
    return error_reply{404, "unknown_run", "no run " + id};
  verdict_lines out;
  out.state = stored->state;
  for (auto& [seq, line] : store_->verdicts(id, after, 10000))
    out.lines.push_back(std::move(line));
  return out;
}

api_result daemon_service::audit(const api_request& req) {
  auto& id = req.params.get("id");
  std::shared_ptr<daemon_run> run;
  if (!lookup(id, run))
    return error_reply{404, "unknown_run", "no run " + id};
  return file_view{ctx_.state_dir + "/runs/" + id + "/audit.jsonl",
                   "the run's audit"};
}

std::unique_ptr<body_stream>
daemon_service::open_stream(const http_request& req, http_response& refusal) {
  std::string target{req.target()};
  auto path = target.substr(0, target.find('?'));
  auto match = api_routes().find(req.method(), path);
  if (!match.found || match.found->handler.endpoint != api_endpoint::upload_pairs)
    return nullptr; // read whole, for handle()
  auto& id = match.params.get("id");
  std::shared_ptr<daemon_run> run;
  std::optional<error_reply> refused;
  std::optional<run_row> stored;
  caf::error why;
  if (!authorized(req))
    refused = unauthorized();
  else if (!pairs_media_type(req))
    refused = wrong_pairs_type(req);
  else if (!(stored = lookup(id, run)))
    refused = error_reply{404, "unknown_run", "no run " + id};
  else if (!run || run->ended())
    refused = run_ended(*stored);
  else if ((why = run->begin_upload()))
    refused = reply_of(why, "input_closed");
  if (refused) {
    refusal = std::get<http_response>(render_result(*refused));
    return nullptr;
  }
  return std::make_unique<pairs_stream>(run);
}

} // namespace ij
