#include "tools/submit_command.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "messages/error.hpp"
#include "tools/api_client.hpp"
#include "tools/exit_codes.hpp"
#include "tools/interrupt.hpp"
#include "tools/output_file.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge submit: %s\n", text.c_str());
}

// The daemon's error message, or the status; a 401 says where the token
// comes from.
std::string reason_of(const api_reply& r) {
  if (r.status == 0)
    return context_of(r.error);
  rapidjson::Document d;
  d.Parse(r.body);
  std::string out = "HTTP " + std::to_string(r.status);
  if (d.IsObject() && d.HasMember("error") && d["error"].IsObject()
      && d["error"].HasMember("message") && d["error"]["message"].IsString())
    out += std::string{": "} + d["error"]["message"].GetString();
  if (r.status == 401)
    out += std::getenv("INVJUDGE_TOKEN")
             ? "; the token in INVJUDGE_TOKEN is not the daemon's: set "
               "INVJUDGE_TOKEN to the token the daemon was started with (its "
               "--token-file, or its INVJUDGE_TOKEN)"
             : "; the daemon needs a bearer token: set INVJUDGE_TOKEN to the "
               "token it was started with (its --token-file, or its "
               "INVJUDGE_TOKEN)";
  return out;
}

// The exit code of a refused request: a token or configuration the daemon
// refuses is the user's to fix (3), anything else an incomplete run (4).
int exit_of(const api_reply& r) {
  return r.status == 400 || r.status == 401 ? exit_code::bad_config
                                            : exit_code::incomplete;
}

// Ctrl-C (or SIGTERM) while the run is at the daemon: it goes on there.
int interrupted(const std::string& server, const std::string& id) {
  say("interrupted: run " + id
      + " goes on at the daemon (only this client "
        "stopped); follow it again with `curl "
      + server + "/v1/runs/" + id
      + "/verdicts`, or cancel it with `curl -X DELETE " + server + "/v1/runs/"
      + id
      + "` (add -H \"Authorization: Bearer $INVJUDGE_TOKEN\" when the "
        "daemon has a token)");
  return exit_code::incomplete;
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
    if (interrupt_requested())
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
    if (interrupt_requested())
      return {};
    auto r = api.request("GET", "/v1/runs/" + id + "/verdicts?after="
                                  + std::to_string(after) + "&wait_ms=20000");
    if (r.status != 200) {
      if (!interrupt_requested())
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
    // A closed output (`submit --follow | head`) stops following as Ctrl-C
    // does (SIGPIPE is ignored): the run goes on at the daemon.
    if (std::fflush(out) != 0 || std::ferror(out)) {
      request_interrupt();
      return {};
    }
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

// What submit reads: --out must be none of them (tools/output_file).
std::vector<kept_file> submit_inputs(const submit_options& opts) {
  std::vector<kept_file> in{{"the pairs file", opts.pairs_path}};
  if (!opts.config_path.empty())
    in.push_back({"the configuration", opts.config_path});
  for (auto* tls : {&opts.tls_ca, &opts.tls_cert, &opts.tls_key})
    if (!tls->empty())
      in.push_back({"a TLS file", *tls});
  return in;
}

// Where --follow writes: --out claimed, else standard output (never an
// input either). Checked before the run is created.
int claim_destination(const submit_options& opts, output_file& out) {
  if (!opts.out_path.empty() && !opts.follow) {
    say("--out needs --follow: without it submit prints only the run's id "
        "and writes no verdicts (add --follow, or drop --out)");
    return exit_code::bad_input;
  }
  if (!opts.follow)
    return exit_code::ok;
  auto inputs = submit_inputs(opts);
  if (opts.out_path.empty()) {
    if (auto err = refuse_input_as_stdout(inputs)) {
      say(context_of(err));
      return exit_code::bad_input;
    }
    return exit_code::ok;
  }
  auto claimed = claim_output("--out", opts.out_path, opts.force, inputs);
  if (!claimed) {
    say(context_of(claimed.error()));
    return exit_code::bad_input;
  }
  out = std::move(*claimed);
  return exit_code::ok;
}

} // namespace

int submit_command(const submit_options& opts) {
  output_file out_file;
  if (auto code = claim_destination(opts, out_file); code != exit_code::ok)
    return code;
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
  auto created = api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                             "application/json");
  if (created.status != 201) {
    say("creating the run failed: " + reason_of(created));
    return exit_of(created);
  }
  rapidjson::Document run;
  run.Parse(created.body);
  std::string id = run["id"].GetString();
  say("run " + id);
  if (!upload(api, id, opts.pairs_path, pairs))
    return interrupt_requested() ? interrupted(opts.server, id)
                                 : exit_code::incomplete;
  auto closed = api.request("POST", "/v1/runs/" + id + "/close");
  if (closed.status != 200) {
    say("closing the run failed: " + reason_of(closed));
    return exit_code::incomplete;
  }
  if (!opts.follow) {
    std::printf("%s\n", id.c_str());
    return exit_code::ok;
  }
  std::FILE* out = stdout;
  if (!opts.out_path.empty() && !(out = out_file.stream())) {
    say(out_file.name() + ": cannot write: " + std::strerror(errno));
    return exit_code::bad_input;
  }
  std::string final_json;
  auto state = follow(api, id, out, final_json);
  if (state.empty())
    return interrupt_requested() ? interrupted(opts.server, id)
                                 : exit_code::incomplete;
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
