#include "daemon/daemon_service.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include <openssl/crypto.h>

#include <boost/beast/http.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "actors/judge_directory.hpp"
#include "actors/local_workers.hpp"
#include "actors/run_session.hpp"
#include "adapters/adapter_factory.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "core/audit_record.hpp"
#include "core/judge_spec.hpp"
#include "messages/error.hpp"

namespace ij {

namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

http_response json_reply(unsigned status, const std::string& body) {
  http_response res{static_cast<http::status>(status), 11};
  res.set(http::field::content_type, "application/json");
  res.body() = body + "\n";
  return res;
}

http_response lines_reply(std::string body) {
  http_response res{http::status::ok, 11};
  res.set(http::field::content_type, "application/x-ndjson");
  res.body() = std::move(body);
  return res;
}

// The media type without parameters, lower case.
std::string media_type(const http_request& req) {
  std::string v{req[http::field::content_type]};
  v = v.substr(0, v.find(';'));
  while (!v.empty() && v.back() == ' ')
    v.pop_back();
  for (auto& c : v)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

void write_run(writer& w, const run_row& r) {
  w.StartObject();
  w.Key("id");
  w.String(r.id);
  w.Key("name");
  w.String(r.name);
  w.Key("state");
  w.String(r.state);
  w.Key("closed");
  w.Bool(r.closed);
  w.Key("lines");
  w.Uint64(r.lines);
  w.Key("counts");
  rapidjson::Document counts;
  counts.Parse(r.counts_json);
  if (counts.IsObject())
    counts.Accept(w);
  else
    w.StartObject(), w.EndObject();
  w.Key("created");
  w.String(iso8601_utc(r.created_ms));
  w.Key("finished");
  if (r.finished_ms > 0)
    w.String(iso8601_utc(r.finished_ms));
  else
    w.Null();
  if (!r.error.empty()) {
    w.Key("error");
    w.String(r.error);
  }
  w.EndObject();
}

std::string run_json(const run_row& r) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  write_run(w, r);
  return {sb.GetString(), sb.GetSize()};
}

std::uint64_t after_of(const std::string& query, bool& ok) {
  ok = true;
  auto at = query.find("after=");
  if (at == std::string::npos)
    return 0;
  auto v = query.substr(at + 6);
  v = v.substr(0, v.find('&'));
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos
      || v.size() > 19) {
    ok = false;
    return 0;
  }
  return std::stoull(v);
}

bool pairs_media_type(const http_request& req) {
  auto type = media_type(req);
  return type == "application/x-ndjson" || type == "application/jsonl"
         || type == "application/x-jsonlines" || type == "text/plain";
}

http_response wrong_pairs_type(const http_request& req) {
  return json_error(415, "unsupported_media_type",
                    "pairs are JSON Lines: application/x-ndjson, not '"
                      + std::string{req[http::field::content_type]} + "'");
}

// {"accepted", "rejected": [{"line", "reason"}...]}
http_response upload_reply(const daemon_run::upload_result& up) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  w.Key("accepted");
  w.Uint64(up.accepted);
  w.Key("rejected");
  w.StartArray();
  for (auto& [line, reason] : up.rejected) {
    w.StartObject();
    w.Key("line");
    w.Uint64(line);
    w.Key("reason");
    w.String(reason);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json_reply(200, {sb.GetString(), sb.GetSize()});
}

// POST /v1/runs/{id}/pairs with the whole body at hand.
http_response upload_pairs(const http_request& req,
                           const std::shared_ptr<daemon_run>& run,
                           const run_row& stored) {
  if (!pairs_media_type(req))
    return wrong_pairs_type(req);
  if (!run || run->ended())
    return json_error(409, "run_ended",
                      "run " + stored.id + " has ended (" + stored.state + ")");
  daemon_run::upload_result up;
  std::string why;
  if (!run->upload(req.body(), up, why))
    return json_error(409, "input_closed", why);
  return upload_reply(up);
}

// The same, streamed: each piece goes to the run as it arrives.
class pairs_stream : public body_stream {
public:
  explicit pairs_stream(std::shared_ptr<daemon_run> run) : run_(std::move(run)) {
  }
  ~pairs_stream() override {
    std::string why;
    if (!finished_) // cut off: its complete lines stay
      run_->end_upload(st_, false, why);
  }
  void chunk(std::string_view data) override {
    run_->upload_piece(data, st_);
  }
  http_response finish() override {
    finished_ = true;
    std::string why;
    if (!run_->end_upload(st_, true, why))
      return json_error(500, "state_failed", why);
    return upload_reply(st_.result);
  }

private:
  std::shared_ptr<daemon_run> run_;
  daemon_run::upload_state st_;
  bool finished_ = false;
};

} // namespace

bool same_secret(const std::string& a, const std::string& b) {
  // The length is not the secret; the bytes are compared in constant time.
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

daemon_service::daemon_service(caf::actor_system& sys, daemon_options options)
  : sys_(sys), options_(std::move(options)) {
}

std::unique_ptr<daemon_service>
daemon_service::open(caf::actor_system& sys, daemon_options options,
                     std::string& error) {
  std::unique_ptr<daemon_service> d{new daemon_service(sys, std::move(options))};
  auto& dir = d->options_.state_dir;
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/runs").c_str(), 0755);
  struct stat st {};
  if (::stat((dir + "/runs").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = "cannot use the state directory " + dir + ": "
            + std::strerror(errno);
    return nullptr;
  }
  d->store_ = state_store::open(dir, error);
  if (!d->store_)
    return nullptr;
  if (!d->options_.cache.path.empty()) {
    d->cache_ = response_cache::open(d->options_.cache.path,
                                     d->options_.cache.ttl,
                                     d->options_.cache.max_bytes, error);
    if (!d->cache_)
      return nullptr;
  }
  d->ctx_.sys = &sys;
  d->ctx_.directory = spawn_judge_directory(sys);
  d->ctx_.store = d->store_.get();
  d->ctx_.metrics = std::make_shared<daemon_metrics>();
  d->ctx_.state_dir = dir;
  // Every unfinished run resumes by itself.
  for (auto& row : d->store_->runs()) {
    if (row.state != "open" && row.state != "running")
      continue;
    std::string why;
    auto cfg = parse_config(row.config_json, "run " + row.id, why);
    std::shared_ptr<daemon_run> run;
    if (cfg && d->ensure_workers(*cfg, why))
      run = daemon_run::restart(d->ctx_, row, why);
    if (!run) {
      row.state = "failed";
      row.error = "could not resume after a restart: " + why;
      row.finished_ms = wall_clock_ms();
      d->store_->update_run(row, why);
      d->resume_failures_.push_back(row.id + ": " + row.error);
      continue;
    }
    d->runs_[row.id] = run;
    ++d->resumed_;
  }
  return d;
}

daemon_service::~daemon_service() {
  shutdown();
  caf::anon_send_exit(ctx_.directory, caf::exit_reason::user_shutdown);
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
  if (options_.token.empty())
    return true;
  std::string auth{req[http::field::authorization]};
  const std::string prefix = "Bearer ";
  if (auth.compare(0, prefix.size(), prefix) != 0)
    return false;
  return same_secret(auth.substr(prefix.size()), options_.token);
}

// A worker for every judge of `cfg` that no worker serves yet: judges are
// shared by every run (and their calls metered and, with a cache, cached).
bool daemon_service::ensure_workers(const run_config& cfg, std::string& error) {
  auto bindings = bind_judges(cfg, error);
  if (!bindings)
    return false;
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
    fresh.push_back(std::move(b));
  }
  if (fresh.empty())
    return true;
  auto started = start_local_workers(sys_, ctx_.directory, std::move(fresh));
  if (!started) {
    error = "cannot start the judges: " + render_error(started.error());
    return false;
  }
  return true;
}

std::shared_ptr<daemon_run> daemon_service::find(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto it = runs_.find(id);
  return it == runs_.end() ? nullptr : it->second;
}

http_response daemon_service::create_run(const http_request& req) {
  if (media_type(req) != "application/json")
    return json_error(415, "unsupported_media_type",
                      "POST /v1/runs takes application/json, not '"
                        + std::string{req[http::field::content_type]} + "'");
  rapidjson::Document doc;
  doc.Parse(req.body().data(), req.body().size());
  if (doc.HasParseError())
    return json_error(400, "malformed_json",
                      "the body is not valid JSON at byte "
                        + std::to_string(doc.GetErrorOffset() + 1) + ": "
                        + rapidjson::GetParseError_En(doc.GetParseError()));
  if (!doc.IsObject())
    return json_error(400, "bad_request", "the body must be a JSON object");
  std::string name;
  if (doc.HasMember("name")) {
    if (!doc["name"].IsString())
      return json_error(400, "bad_request", "/name must be a string");
    name = doc["name"].GetString();
  }
  std::string config_text = "{}";
  if (doc.HasMember("config")) {
    if (!doc["config"].IsObject())
      return json_error(400, "bad_config", "/config must be a JSON object");
    rapidjson::StringBuffer sb;
    writer w(sb);
    doc["config"].Accept(w);
    config_text.assign(sb.GetString(), sb.GetSize());
  }
  std::string error;
  auto cfg = parse_config(config_text, "/config", error);
  if (!cfg)
    return json_error(400, "bad_config", error);
  if (!ensure_workers(*cfg, error))
    return json_error(400, "bad_config", "/config: " + error);
  run_row row;
  row.id = make_run_id();
  row.name = name;
  row.config_json = config_text;
  row.created_ms = wall_clock_ms();
  row.counts_json = "{}";
  auto run = daemon_run::create(ctx_, row, std::move(*cfg), error);
  if (!run)
    return json_error(500, "state_failed", error);
  {
    std::lock_guard<std::mutex> guard{mtx_};
    runs_[row.id] = run;
  }
  return json_reply(201, run_json(run->row()));
}

http_reply daemon_service::run_request(const http_request& req,
                                          const std::string& id,
                                          const std::string& rest) {
  auto run = find(id);
  auto stored = run ? std::optional<run_row>{run->row()} : store_->run(id);
  if (!stored)
    return json_error(404, "unknown_run", "no run " + id);
  auto method = req.method();
  std::string target{req.target()};
  auto query = target.find('?') == std::string::npos
                 ? std::string{}
                 : target.substr(target.find('?') + 1);
  if (rest.empty() && method == http::verb::get)
    return json_reply(200, run_json(*stored));
  if (rest.empty() && method == http::verb::delete_) {
    if (!run || run->ended())
      return json_error(409, "run_ended",
                        "run " + id + " has ended (" + stored->state + ")");
    run->cancel();
    return json_reply(200, run_json(run->row()));
  }
  if (rest == "/pairs" && method == http::verb::post)
    return upload_pairs(req, run, *stored);
  if (rest == "/close" && method == http::verb::post) {
    std::string why;
    if (!run || !run->close(why))
      return json_error(409, "run_ended",
                        why.empty() ? "run " + id + " has ended" : why);
    return json_reply(200, run_json(run->row()));
  }
  if (rest == "/verdicts" && method == http::verb::get) {
    bool ok = true;
    auto after = after_of(query, ok);
    if (!ok)
      return json_error(400, "bad_request",
                        "after must be a sequence number (digits)");
    std::string body;
    for (auto& [seq, line] : store_->verdicts(id, after, 10000))
      body += line + "\n";
    auto res = lines_reply(std::move(body));
    res.set("X-Run-State", stored->state);
    return res;
  }
  if (rest == "/audit" && method == http::verb::get) {
    http_file_response res{http::status::ok, 11};
    beast::error_code ec;
    res.body().open((ctx_.state_dir + "/runs/" + id + "/audit.jsonl").c_str(),
                    beast::file_mode::scan, ec);
    if (ec)
      return json_error(500, "internal",
                        "cannot read the run's audit: " + ec.message());
    res.set(http::field::content_type, "application/x-ndjson");
    return res;
  }
  if (rest.empty() || rest == "/pairs" || rest == "/close"
      || rest == "/verdicts" || rest == "/audit")
    return json_error(405, "method_not_allowed",
                      std::string{req.method_string()} + " is not allowed on "
                        + target);
  return json_error(404, "not_found", "no such endpoint: " + target);
}

http_response daemon_service::list_runs(const http_request&) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  w.Key("runs");
  w.StartArray();
  for (auto& row : store_->runs()) {
    auto run = find(row.id);
    write_run(w, run ? run->row() : row);
  }
  w.EndArray();
  w.EndObject();
  return json_reply(200, {sb.GetString(), sb.GetSize()});
}

http_response daemon_service::metrics(const http_request&) {
  std::map<std::string, std::uint64_t> states;
  for (auto s : {"open", "running", "done", "cancelled", "failed"})
    states[s] = 0;
  for (auto& row : store_->runs()) {
    auto run = find(row.id);
    ++states[run ? run->row().state : row.state];
  }
  http_response res{http::status::ok, 11};
  res.set(http::field::content_type, "text/plain; version=0.0.4");
  res.body() = ctx_.metrics->render(states);
  return res;
}

std::unique_ptr<body_stream>
daemon_service::open_stream(const http_request& req, http_response& refusal) {
  std::string target{req.target()};
  auto path = target.substr(0, target.find('?'));
  const std::string prefix = "/v1/runs/", suffix = "/pairs";
  if (req.method() != http::verb::post || path.size() <= prefix.size() + suffix.size()
      || path.compare(0, prefix.size(), prefix) != 0
      || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    return nullptr; // read whole, for handle()
  auto id = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
  auto run = find(id);
  if (!authorized(req))
    refusal = json_error(401, "unauthorized",
                         "a valid 'Authorization: Bearer TOKEN' header is needed");
  else if (!pairs_media_type(req))
    refusal = wrong_pairs_type(req);
  else if (!run && !store_->run(id))
    refusal = json_error(404, "unknown_run", "no run " + id);
  else if (!run || run->ended())
    refusal = json_error(409, "run_ended", "run " + id + " has ended");
  std::string why;
  if (refusal.result() == http::status::unknown && !run->begin_upload(why))
    refusal = json_error(409, "input_closed", why);
  if (refusal.result() != http::status::unknown)
    return nullptr;
  return std::make_unique<pairs_stream>(run);
}

http_reply daemon_service::handle(const http_request& req) {
  std::string target{req.target()};
  auto path = target.substr(0, target.find('?'));
  if (path == "/healthz") {
    http_response res{http::status::ok, 11};
    res.set(http::field::content_type, "text/plain");
    res.body() = "ok\n";
    return res;
  }
  if (!authorized(req))
    return json_error(401, "unauthorized",
                      "a valid 'Authorization: Bearer TOKEN' header is needed");
  if (path == "/metrics" && req.method() == http::verb::get)
    return metrics(req);
  if (path == "/v1/runs") {
    if (req.method() == http::verb::post)
      return create_run(req);
    if (req.method() == http::verb::get)
      return list_runs(req);
    return json_error(405, "method_not_allowed",
                      std::string{req.method_string()}
                        + " is not allowed on /v1/runs");
  }
  const std::string prefix = "/v1/runs/";
  if (path.compare(0, prefix.size(), prefix) == 0) {
    auto rest = path.substr(prefix.size());
    auto slash = rest.find('/');
    auto id = rest.substr(0, slash);
    return run_request(req, id,
                       slash == std::string::npos ? std::string{}
                                                  : rest.substr(slash));
  }
  return json_error(404, "not_found", "no such endpoint: " + path);
}

} // namespace ij
