#include "daemon/daemon_service.hpp"

#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>

#include <sys/stat.h>

#include <boost/beast/http.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/judge_directory.hpp"
#include "actors/run_session.hpp"
#include "adapters/adapter_factory.hpp"
#include "core/session/run_id.hpp"
#include "core/wall_clock.hpp"
#include "daemon/actor_request.hpp"
#include "daemon/pairs_file_reader.hpp"
#include "daemon/pairs_stream.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/run_launch.hpp"
#include "daemon/run_registry.hpp"
#include "daemon/run_request.hpp"
#include "daemon/state_writer.hpp"
#include "messages/error.hpp"
#include "runio/calibration_file.hpp"
#include "runio/prompt_file.hpp"

namespace ij {

namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

// A query parameter's raw value; nullopt when absent.
std::optional<std::string_view> query_value(std::string_view query,
                                            std::string_view name) {
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{}
                                          : query.substr(amp + 1);
    auto eq = pair.find('=');
    if (pair.substr(0, eq) == name)
      return eq == std::string_view::npos ? std::string_view{}
                                          : pair.substr(eq + 1);
  }
  return std::nullopt;
}

// A query parameter's value as a number: `fallback` when absent; an error
// naming the parameter and its value when it is not digits (or too long for
// 64 bits).
caf::expected<std::uint64_t> number_param(const std::string& query,
                                          std::string_view name,
                                          std::uint64_t fallback) {
  auto v = query_value(query, name);
  if (!v)
    return fallback;
  if (v->empty() || v->find_first_not_of("0123456789") != std::string_view::npos
      || v->size() > 19)
    return make_error(errc::bad_input, std::string{name}
                                         + " must be digits, not '"
                                         + std::string{*v} + "'");
  return std::stoull(std::string{*v});
}

// A query parameter's text ("" when absent); cursors are plain ASCII, and
// the one escape a run id's cursor may need (':' as %3A) is undone.
std::string text_param(const std::string& query, std::string_view name) {
  std::string v{query_value(query, name).value_or(std::string_view{})};
  for (std::size_t at; (at = v.find("%3A")) != std::string::npos
                       || (at = v.find("%3a")) != std::string::npos;)
    v.replace(at, 3, ":");
  return v;
}

error_reply unauthorized() {
  return {401,
          "unauthorized",
          "a valid 'Authorization: Bearer TOKEN' header is needed",
          {}};
}

error_reply run_ended(const run_row& row) {
  return {409,
          "run_ended",
          "run " + row.id + " has ended (" + std::string{to_string(row.state)}
            + ")",
          {}};
}

error_reply busy() {
  return {503,
          "busy",
          "the daemon could not answer in time (its runs are busy); send the "
          "request again",
          {}};
}

// The answer to a failure of the daemon's own: its code says the status
// (the configuration: 400; a run that has ended: 409 run_ended; a run whose
// state refuses the request: 409 with `conflict` as the JSON code, as
// docs/openapi.yaml names it per endpoint; no answer in time: 503 busy; the
// state on disk and anything else: 500).
error_reply reply_of(const caf::error& err,
                     const char* conflict = "run_ended") {
  if (is_sec(err, caf::sec::request_timeout))
    return busy();
  auto text = context_of(err);
  if (err.category() == caf::atom("ij")) {
    switch (static_cast<errc>(err.code())) {
      case errc::bad_config: return {400, "bad_config", text, {}};
      case errc::run_ended: return {409, "run_ended", text, {}};
      case errc::run_state: return {409, conflict, text, {}};
      default: break;
    }
  }
  return {500, "state_failed", text, {}};
}

// A margin past an actor's own deadline: its timeout error normally comes
// first and says 503 itself.
constexpr std::chrono::milliseconds answer_margin{1000};

} // namespace

daemon_service::daemon_service(caf::actor_system& sys, daemon_options options)
    : sys_(sys), options_(std::move(options)) {}

caf::expected<std::unique_ptr<daemon_service>>
daemon_service::open(caf::actor_system& sys, daemon_options options) {
  std::unique_ptr<daemon_service> d{
    new daemon_service(sys, std::move(options))};
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
  if (!d->options_.cache.path.empty()) {
    auto cache =
      response_cache::open(d->options_.cache.path, d->options_.cache.ttl,
                           d->options_.cache.max_bytes);
    if (!cache)
      return std::move(cache.error());
    d->cache_ = std::move(*cache);
  }
  auto writer = spawn_state_writer(sys, {dir, d->options_.log});
  if (!writer)
    return std::move(writer.error());
  auto& ctx = d->ctx_;
  ctx.sys = &sys;
  ctx.directory = spawn_judge_directory(sys);
  ctx.writer = *writer;
  ctx.metrics = std::make_shared<daemon_metrics>();
  ctx.state_dir = dir;
  ctx.reader = spawn_pairs_file_reader(sys);
  registry_settings rs;
  rs.keep_ms = d->options_.keep_ms;
  rs.keep_runs = d->options_.keep_runs;
  rs.cache = d->cache_;
  rs.idle = d->options_.idle;
  auto sums = d->store_->finished_sums();
  if (!sums)
    return std::move(sums.error());
  d->registry_ = spawn_run_registry(ctx, rs, std::move(*sums));
  ctx.registry = d->registry_;
  if (auto err = d->resume_runs())
    return err;
  return d;
}

// A run found unfinished: its configuration and judges read again, its
// files read back, handed to the registry like a new run (without a new
// row). Waits for the registry (the start, on the main thread).
caf::error daemon_service::resume(const run_row& row) {
  auto cfg = parse_config(row.config_json, "run " + row.id);
  if (!cfg)
    return std::move(cfg.error());
  // The stored map path is absolute and its SHA-256 pinned (run_request).
  if (auto err = attach_calibration(*cfg))
    return err;
  // The stored template paths are absolute and their SHA-256 pinned.
  if (auto err = attach_prompts(*cfg))
    return err;
  auto bindings = bind_judges(*cfg, batch_journal_);
  if (!bindings)
    return std::move(bindings.error());
  auto launch = prepare_restart(options_.state_dir, *store_, row,
                                std::move(*cfg), std::move(*bindings));
  if (!launch)
    return std::move(launch.error());
  // What it had submitted is polled and its results kept, never submitted
  // again: its batched judges take the marks before its session starts.
  auto marks = batch_journal_->open_marks_of(row.id);
  if (!marks)
    return std::move(marks.error());
  (*launch)->marks = std::move(*marks);
  caf::error failed;
  caf::scoped_actor self{sys_};
  self
    ->request(registry_, std::chrono::seconds(60), create_atom::value,
              run_launch_ref{std::move(*launch)})
    .receive([](run_row&) {},
             [&](caf::error& err) { failed = std::move(err); });
  return failed;
}

// Every unfinished run resumes by itself; one that cannot is failed, and
// why is kept for the log. An unreadable state is the start's error.
caf::error daemon_service::resume_runs() {
  caf::scoped_actor self{sys_};
  auto rows = store_->unfinished_runs();
  if (!rows)
    return std::move(rows.error());
  for (auto& row : *rows) {
    if (auto err = resume(row)) {
      row.state = run_state::failed;
      row.error = "could not resume after a restart: " + context_of(err);
      row.finished_ms = wall_clock_ms();
      self
        ->request(ctx_.writer, std::chrono::seconds(60),
                  run_end_record{row, true})
        .receive([&](run_row& saved) { row = std::move(saved); },
                 [](caf::error&) {}); // failed in the log too
      self->send(registry_, ended_atom::value, row, true);
      resume_failures_.push_back(row.id + ": " + row.error);
      continue;
    }
    ++resumed_;
  }
  return caf::none;
}

daemon_service::~daemon_service() {
  // The registry ends its live runs (after shutdown() there are none) and
  // the writer; the directory its workers.
  caf::anon_send_exit(registry_, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(ctx_.writer, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(ctx_.directory, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(ctx_.reader, caf::exit_reason::user_shutdown);
}

void daemon_service::shutdown(std::chrono::milliseconds grace) {
  caf::scoped_actor self{sys_};
  self
    ->request(registry_, std::max(grace, std::chrono::milliseconds(5000)),
              shutdown_atom::value)
    .receive([](std::uint32_t) {}, [](caf::error&) {});
}

bool daemon_service::authorized(const http_request& req) const {
  return options_.token.empty()
         || bearer_matches(header_value(req, http::field::authorization),
                           options_.token);
}

daemon_service::handler_fn daemon_service::handler_of(api_endpoint e) {
  switch (e) {
    case api_endpoint::health: return &daemon_service::health;
    case api_endpoint::metrics: return &daemon_service::metrics;
    case api_endpoint::create_run: return &daemon_service::create_run;
    case api_endpoint::list_runs: return &daemon_service::list_runs;
    case api_endpoint::get_run: return &daemon_service::get_run;
    case api_endpoint::cancel_run: return &daemon_service::cancel_run;
    case api_endpoint::upload_pairs: return &daemon_service::upload_pairs;
    case api_endpoint::close_run: return &daemon_service::close_run;
    case api_endpoint::verdicts: return &daemon_service::verdicts;
    case api_endpoint::audit: return &daemon_service::audit;
  }
  return nullptr; // not reached: every endpoint is above (-Wswitch)
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

template <class R, class... Ts>
api_result daemon_service::ask_live(const std::string& id,
                                    std::chrono::milliseconds wait,
                                    std::function<api_result(R&)> live,
                                    std::function<api_result()> not_live,
                                    bool idle, const char* conflict, Ts... xs) {
  auto timeout = options_.reply_timeout + wait;
  auto start = [this, id, timeout, live, not_live, conflict, xs...](
                 std::function<void(std::function<api_result()>)> answer) {
    ask_run<R>(
      sys_, registry_, id, timeout,
      [answer, live, not_live, conflict](caf::expected<std::optional<R>> a) {
        answer(
          [a = std::move(a), live, not_live, conflict]() mutable -> api_result {
            if (!a)
              return reply_of(a.error(), conflict);
            if (!*a)
              return not_live();
            return live(**a);
          });
      },
      xs...);
  };
  return deferred_result{timeout + answer_margin, std::move(start),
                         [] { return api_result{busy()}; }, idle};
}

api_result
daemon_service::stored(const std::string& id,
                       const std::function<api_result(run_row&)>& found) {
  auto row = store_->run(id);
  if (!row)
    return error_reply{500, "internal", context_of(row.error())};
  if (*row)
    return found(**row);
  if (store_->removed(id))
    return error_reply{
      410, "run_removed",
      "run " + id
        + " was removed by the retention "
          "(SERVE.json \"retention\"): its verdicts, audit and "
          "files are gone"};
  return error_reply{404, "unknown_run", "no run " + id};
}

api_result daemon_service::health(const api_request&) {
  return health_view{};
}

api_result daemon_service::metrics(const api_request&) {
  auto start = [this](std::function<void(std::function<api_result()>)> answer) {
    ask<run_figures>(
      sys_, registry_, options_.reply_timeout,
      answer_fn<run_figures>{[this, answer](caf::expected<run_figures> f) {
        answer([this, f = std::move(f)]() -> api_result {
          if (!f)
            return reply_of(f.error());
          return metrics_text{ctx_.metrics->render(*f)};
        });
      }},
      metrics_atom::value);
  };
  return deferred_result{options_.reply_timeout + answer_margin,
                         std::move(start), [] { return api_result{busy()}; }};
}

api_result daemon_service::create_run(const api_request& req) {
  auto parsed = parse_run_request(
    header_value(req.http, http::field::content_type), req.http.body());
  if (auto* e = std::get_if<error_reply>(&parsed))
    return *e;
  auto& body = std::get<run_request>(parsed);
  if (auto err = load_run_calibration(body))
    return reply_of(err);
  if (auto err = load_run_prompts(body))
    return reply_of(err);
  // The binding's errors already name their source ("/config: ...").
  auto bindings = bind_judges(body.config, batch_journal_);
  if (!bindings)
    return reply_of(bindings.error());
  run_row row;
  row.id = make_run_id();
  row.name = body.name;
  row.config_json = body.config_text;
  row.created_ms = wall_clock_ms();
  auto launch = prepare_new_run(options_.state_dir, std::move(row),
                                std::move(body.config), std::move(*bindings));
  if (!launch)
    return reply_of(launch.error());
  auto ref = run_launch_ref{std::move(*launch)};
  auto start = [this,
                ref](std::function<void(std::function<api_result()>)> answer) {
    ask<run_row>(sys_, registry_, options_.reply_timeout,
                 answer_fn<run_row>{[answer](caf::expected<run_row> r) {
                   answer([r = std::move(r)]() -> api_result {
                     if (!r)
                       return reply_of(r.error());
                     return run_view{*r, 201};
                   });
                 }},
                 create_atom::value, ref);
  };
  return deferred_result{options_.reply_timeout + answer_margin,
                         std::move(start), [] { return api_result{busy()}; }};
}

// A page from the state, the live runs among it as their actors last told.
api_result daemon_service::list_runs(const api_request& req) {
  auto limit = number_param(req.query, "limit", default_page);
  if (!limit || *limit == 0 || *limit > max_page)
    return error_reply{400, "bad_request",
                       "limit must be a number of runs from 1 to "
                         + std::to_string(max_page) + ", not '"
                         + text_param(req.query, "limit") + "'"};
  auto page = store_->runs(static_cast<std::size_t>(*limit),
                           text_param(req.query, "after"));
  // A state the database holds that cannot be read is not the request's.
  if (!page && page.error().category() == caf::atom("ij")
      && static_cast<errc>(page.error().code()) == errc::io_failed)
    return error_reply{500, "internal", context_of(page.error())};
  if (!page)
    return error_reply{400, "bad_request", context_of(page.error())};
  std::vector<std::string> ids;
  for (auto& r : page->rows)
    if (!final_state(r.state))
      ids.push_back(r.id);
  if (ids.empty())
    return run_list{std::move(page->rows), std::move(page->next)};
  auto shared = std::make_shared<run_page>(std::move(*page));
  auto start = [this, shared,
                ids](std::function<void(std::function<api_result()>)> answer) {
    ask<std::vector<run_row>>(
      sys_, registry_, options_.reply_timeout,
      answer_fn<std::vector<run_row>>{
        [answer, shared](caf::expected<std::vector<run_row>> live) {
          answer([shared, live = std::move(live)]() -> api_result {
            if (!live)
              return reply_of(live.error());
            for (auto& l : *live)
              for (auto& r : shared->rows)
                if (r.id == l.id)
                  r = l;
            return run_list{std::move(shared->rows), std::move(shared->next)};
          });
        }},
      find_atom::value, ids);
  };
  return deferred_result{options_.reply_timeout + answer_margin,
                         std::move(start), [] { return api_result{busy()}; }};
}

api_result daemon_service::get_run(const api_request& req) {
  auto id = req.params.get("id");
  return ask_live<run_row>(
    id, {}, [](run_row& row) -> api_result { return run_view{row}; },
    [this, id] {
      return stored(id, [](run_row& row) { return run_view{row}; });
    },
    false, "run_ended", get_atom::value);
}

api_result daemon_service::cancel_run(const api_request& req) {
  auto id = req.params.get("id");
  return ask_live<run_row>(
    id, {}, [](run_row& row) -> api_result { return run_view{row}; },
    [this, id] {
      return stored(id, [](run_row& row) { return run_ended(row); });
    },
    false, "run_ended", cancel_atom::value,
    "cancelled (DELETE /v1/runs/" + id + ")");
}

api_result daemon_service::close_run(const api_request& req) {
  auto id = req.params.get("id");
  return ask_live<run_row>(
    id, {}, [](run_row& row) -> api_result { return run_view{row}; },
    // A close sent again (after a 503 busy: the first one was queued and
    // went through) to a run that has since ended done: its input was
    // closed, as asked.
    [this, id] {
      return stored(id, [](run_row& row) -> api_result {
        if (row.closed && row.state == run_state::done)
          return run_view{row};
        return run_ended(row);
      });
    },
    false, "run_ended", end_of_input_atom::value);
}

// The whole body at hand (the server streams uploads to open_stream; this
// serves a server without a stream opener).
api_result daemon_service::upload_pairs(const api_request& req) {
  auto id = req.params.get("id");
  if (!pairs_media_type(req.http))
    return wrong_pairs_type(req.http);
  auto body = std::make_shared<std::string>(req.http.body());
  return ask_live<input_lease_ref>(
    id, {},
    [body](input_lease_ref& lease) -> api_result {
      return upload_whole(std::move(lease), *body);
    },
    [this, id] {
      return stored(id, [](run_row& row) { return run_ended(row); });
    },
    false, "input_closed", upload_atom::value);
}

api_result daemon_service::verdicts(const api_request& req) {
  auto id = req.params.get("id");
  auto after_seq = number_param(req.query, "after", 0);
  if (!after_seq)
    return error_reply{400, "bad_request", context_of(after_seq.error())};
  auto wait = number_param(req.query, "wait_ms", 0);
  if (!wait || *wait > max_wait_ms)
    return error_reply{400, "bad_request",
                       "wait_ms must be a number of milliseconds from 0 to "
                         + std::to_string(max_wait_ms) + ", not '"
                         + text_param(req.query, "wait_ms") + "'"};
  auto after = *after_seq;
  auto wait_ms = *wait;
  // The run's actor answers once lines after `after` are stored, it has
  // ended, or wait_ms is over: the lines are read after its state, so that
  // a final state means these are the last. No thread waits meanwhile.
  return ask_live<run_row>(
    id, std::chrono::milliseconds(wait_ms),
    [this, id, after](run_row& row) {
      return lines_after(id, after, row.state);
    },
    [this, id, after] {
      return stored(
        id, [&](run_row& row) { return lines_after(id, after, row.state); });
    },
    wait_ms > 0, "run_ended", wait_atom::value, after, wait_ms);
}

api_result daemon_service::lines_after(const std::string& id,
                                       std::uint64_t after, run_state state) {
  verdict_lines out;
  out.state = state;
  for (auto& [seq, line] : store_->verdicts(id, after, 10000))
    out.lines.push_back(std::move(line));
  return out;
}

api_result daemon_service::audit(const api_request& req) {
  auto id = req.params.get("id");
  return stored(id, [&](run_row&) -> api_result {
    return file_view{ctx_.state_dir + "/runs/" + id + "/audit.jsonl",
                     "the run's audit"};
  });
}

stream_decision daemon_service::open_stream(const http_request& req) {
  std::string target{req.target()};
  auto path = target.substr(0, target.find('?'));
  auto match = api_routes().find(req.method(), path);
  if (!match.found
      || match.found->handler.endpoint != api_endpoint::upload_pairs)
    return read_whole{}; // for handle()
  auto refuse = [](const api_result& r) {
    return refuse_body{std::get<http_response>(render_result(r))};
  };
  if (!authorized(req))
    return refuse(unauthorized());
  if (!pairs_media_type(req))
    return refuse(wrong_pairs_type(req));
  auto id = match.params.get("id");
  decide_later d;
  d.at_most = options_.reply_timeout + answer_margin;
  d.late = [refuse] { return refuse(busy()).reply; };
  d.start = [this, id, refuse](
              std::function<void(std::function<later_decision()>)> answer) {
    ask_run<input_lease_ref>(
      sys_, registry_, id, options_.reply_timeout,
      [this, id, answer,
       refuse](caf::expected<std::optional<input_lease_ref>> a) {
        answer(
          [this, id, refuse, a = std::move(a)]() mutable -> later_decision {
            if (!a)
              return refuse(reply_of(a.error(), "input_closed"));
            if (!*a)
              return refuse(
                stored(id, [](run_row& row) { return run_ended(row); }));
            return take_body{std::make_unique<pairs_stream>(std::move(**a))};
          });
      },
      upload_atom::value);
  };
  return d;
}

} // namespace ij
