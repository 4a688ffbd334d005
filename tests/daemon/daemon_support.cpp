#include "tests/daemon/daemon_support.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include <rapidjson/document.h>

namespace ij::test {

started_daemon::started_daemon(const temp_dir& dir, const std::string& state,
                               std::vector<std::string> extra,
                               const std::string& tag)
  : err_(dir.file(tag + ".err")), out_(dir.file(tag + ".out")) {
  std::vector<std::string> args{"serve", "--listen", "127.0.0.1:0", "--state",
                                state};
  args.insert(args.end(), extra.begin(), extra.end());
  proc_ = std::make_unique<invjudge_process>(args, out_, err_);
  if (!wait_for_text(err_, "listening on 127.0.0.1:"))
    throw std::runtime_error("the daemon did not start: " + read_file(err_));
  auto text = read_file(err_);
  auto at = text.find("listening on 127.0.0.1:") + 23;
  port_ = std::stoi(text.substr(at));
}

std::string started_daemon::log() const {
  return read_file(out_) + read_file(err_);
}

std::string wait_until_ended(api_client& api, const std::string& id) {
  // Bounded only so that a broken build cannot hang the suite.
  for (int i = 0; i < 6000; ++i) {
    auto r = api.request("GET", "/v1/runs/" + id);
    auto state = field(r.body, "state");
    if (state == "done" || state == "cancelled" || state == "failed")
      return r.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

std::string field(const std::string& json, const char* name) {
  rapidjson::Document d;
  d.Parse(json);
  if (!d.IsObject() || !d.HasMember(name))
    return {};
  auto& v = d[name];
  if (v.IsString())
    return v.GetString();
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  if (v.IsBool())
    return v.GetBool() ? "true" : "false";
  return {};
}

} // namespace ij::test
