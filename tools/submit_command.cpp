#include "tools/submit_command.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "messages/error.hpp"
#include "tools/api_client.hpp"
#include "tools/exit_codes.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge submit: %s\n", text.c_str());
}

// The daemon's error message, or the status.
std::string reason_of(const api_reply& r) {
  if (r.status == 0)
    return context_of(r.error);
  rapidjson::Document d;
  d.Parse(r.body);
  if (d.IsObject() && d.HasMember("error") && d["error"].IsObject()
      && d["error"].HasMember("message") && d["error"]["message"].IsString())
    return "HTTP " + std::to_string(r.status) + ": "
           + d["error"]["message"].GetString();
  return "HTTP " + std::to_string(r.status);
}

bool read_text(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return !in.bad();
}

// Uploads the pairs in pieces of at most `chunk` bytes, cut at line ends;
// prints every rejected line. False when an upload failed.
bool upload(api_client& api, const std::string& id, const std::string& name,
            std::ifstream& in) {
  constexpr std::size_t chunk = 4u << 20;
  std::string piece, line;
  auto send = [&]() {
    if (piece.empty())
      return true;
    auto r = api.request("POST", "/v1/runs/" + id + "/pairs", piece,
                         "application/x-ndjson");
    piece.clear();
    if (r.status != 200) {
      say("uploading the pairs failed: " + reason_of(r));
      return false;
    }
    rapidjson::Document d;
    d.Parse(r.body);
    if (d.IsObject() && d.HasMember("rejected") && d["rejected"].IsArray())
      for (auto& x : d["rejected"].GetArray())
        std::fprintf(stderr, "%s:%llu: rejected: %s\n", name.c_str(),
                     static_cast<unsigned long long>(x["line"].GetUint64()),
                     x["reason"].GetString());
    return true;
  };
  while (std::getline(in, line)) {
    piece += line;
    piece += '\n';
    if (piece.size() >= chunk && !send())
      return false;
  }
  return send();
}

// Prints verdict lines as they come until the run has ended; returns its
// final state ("" when the daemon could not be asked). Each request waits
// at the daemon until there are lines or the run has ended (wait_ms), so
// lines arrive as they are released, without polling.
std::string follow(api_client& api, const std::string& id, std::FILE* out,
                   std::string& run_json) {
  std::uint64_t after = 0;
  for (;;) {
    auto r = api.request("GET", "/v1/runs/" + id + "/verdicts?after="
                                  + std::to_string(after) + "&wait_ms=20000");
    if (r.status != 200) {
      say("following the run failed: " + reason_of(r));
      return {};
    }
    std::size_t start = 0, nl;
    while ((nl = r.body.find('\n', start)) != std::string::npos) {
      auto line = r.body.substr(start, nl - start);
      start = nl + 1;
      rapidjson::Document d;
      d.Parse(line);
      if (d.IsObject() && d.HasMember("seq") && d["seq"].IsUint64())
        after = d["seq"].GetUint64();
      std::fprintf(out, "%s\n", line.c_str());
    }
    std::fflush(out);
    // The state was read before the lines: once it is final, the lines
    // just read are the last.
    auto state = r.header("X-Run-State");
    if (state == "done" || state == "cancelled" || state == "failed") {
      auto ended = api.request("GET", "/v1/runs/" + id);
      if (ended.status != 200) {
        say("reading the run's end failed: " + reason_of(ended));
        return {};
      }
      run_json = ended.body;
      return state;
    }
  }
}

} // namespace

int submit_command(const submit_options& opts) {
  std::string token;
  if (auto env = std::getenv("INVJUDGE_TOKEN"))
    token = env;
  api_client api{opts.server, token, std::chrono::seconds(60),
                 api_tls{opts.tls_ca, opts.tls_cert, opts.tls_key}};
  if (auto err = api.check()) {
    say(context_of(err));
    return exit_code::bad_input;
  }
  std::ifstream pairs(opts.pairs_path, std::ios::binary);
  if (!pairs) {
    say("cannot open the pairs file " + opts.pairs_path);
    return exit_code::bad_input;
  }
  std::string config = "{}";
  if (!opts.config_path.empty() && !read_text(opts.config_path, config)) {
    say("cannot read the configuration " + opts.config_path);
    return exit_code::bad_config;
  }
  rapidjson::Document check;
  check.Parse(config);
  if (check.HasParseError() || !check.IsObject()) {
    say(opts.config_path + ": not a JSON object");
    return exit_code::bad_config;
  }
  auto created = api.request("POST", "/v1/runs",
                             "{\"config\":" + config + "}", "application/json");
  if (created.status != 201) {
    say("creating the run failed: " + reason_of(created));
    return created.status == 400 ? exit_code::bad_config : exit_code::incomplete;
  }
  rapidjson::Document run;
  run.Parse(created.body);
  std::string id = run["id"].GetString();
  say("run " + id);
  if (!upload(api, id, opts.pairs_path, pairs))
    return exit_code::incomplete;
  auto closed = api.request("POST", "/v1/runs/" + id + "/close");
  if (closed.status != 200) {
    say("closing the run failed: " + reason_of(closed));
    return exit_code::incomplete;
  }
  if (!opts.follow) {
    std::printf("%s\n", id.c_str());
    return exit_code::ok;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{nullptr, &std::fclose};
  std::FILE* out = stdout;
  if (!opts.out_path.empty()) {
    file.reset(std::fopen(opts.out_path.c_str(), "w"));
    if (!file) {
      say("cannot write " + opts.out_path);
      return exit_code::bad_input;
    }
    out = file.get();
  }
  std::string final_json;
  auto state = follow(api, id, out, final_json);
  if (state.empty())
    return exit_code::incomplete;
  say("run " + id + " " + state + ": " + final_json);
  // Last: the audit's final hash, to keep apart from the daemon and compare
  // with `invjudge audit verify --expect-hash` of the downloaded audit.
  rapidjson::Document ended;
  ended.Parse(final_json);
  if (ended.IsObject() && ended.HasMember("final_hash")
      && ended["final_hash"].IsString())
    say("run " + id + " final hash: " + ended["final_hash"].GetString());
  return state == "done" ? exit_code::ok : exit_code::incomplete;
}

} // namespace ij
