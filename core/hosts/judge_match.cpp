#include "core/hosts/judge_match.hpp"

#include <algorithm>

#include "core/hosts/worker_key.hpp"
#include "core/numbers/number_text.hpp"

namespace ij {

std::string judge_difference(const judge_spec& spec, const judge_info& served) {
  auto id = judge_id_of(spec);
  auto fields = setting_differences(spec, served);
  if (served.judge_id == id && fields.empty())
    return {};
  if (fields.empty()) // a spelling of the id itself
    return "judge id differs (host: " + served.judge_id + ", here: " + id + ")";
  std::string out;
  for (auto& f : fields)
    out += (out.empty() ? "" : "; ") + f;
  return out;
}

std::string served_judge_text(const judge_info& served) {
  return "judge " + served.name + " (" + served.adapter_type + ", model "
         + served.model + ", temperature " + number_text(served.temperature)
         + ")";
}

const judge_spec* closest_judge(const std::vector<judge_spec>& judges,
                                const judge_info& served) {
  const judge_spec* best = nullptr;
  std::size_t fewest = 0;
  for (auto& spec : judges) {
    auto n = setting_differences(spec, served).size();
    if (!best || n < fewest) {
      best = &spec;
      fewest = n;
    }
  }
  return best;
}

} // namespace ij

namespace ij {

namespace {

bool serves(const std::vector<judge_spec>& judges, const judge_info& w) {
  for (auto& spec : judges)
    if (judge_difference(spec, w).empty())
      return true;
  return false;
}

/// The workers of judge hosts, one per host and judge id, in order.
std::vector<const judge_info*>
host_judges(const std::vector<judge_info>& workers) {
  std::vector<const judge_info*> out;
  for (auto& w : workers) {
    if (w.host.empty() || w.host == "local")
      continue;
    bool seen = false;
    for (auto* o : out)
      seen = seen || (o->host == w.host && o->judge_id == w.judge_id);
    if (!seen)
      out.push_back(&w);
  }
  return out;
}

} // namespace

caf::error check_served(const std::vector<judge_spec>& judges,
                        const std::vector<judge_info>& workers) {
  for (auto& spec : judges) {
    bool served = false;
    for (auto& w : workers)
      served = served || judge_difference(spec, w).empty();
    if (served)
      continue;
    auto text =
      "no worker serves judge " + spec.name + " (" + judge_id_of(spec) + ")";
    auto remote = host_judges(workers);
    if (remote.empty())
      return make_error(errc::no_worker,
                        text + ": no host that serves it could be used");
    for (auto* w : remote)
      text += (w == remote.front() ? ": " : "; ") + std::string{"host "}
              + w->host + " serves " + served_judge_text(*w) + ": "
              + judge_difference(spec, *w);
    return make_error(errc::no_worker, std::move(text));
  }
  return caf::error{};
}

std::vector<std::string>
unused_host_warnings(const std::vector<judge_spec>& judges,
                     const std::vector<judge_info>& workers) {
  std::vector<std::string> out;
  auto remote = host_judges(workers);
  std::vector<std::string> hosts;
  for (auto* w : remote)
    if (std::find(hosts.begin(), hosts.end(), w->host) == hosts.end())
      hosts.push_back(w->host);
  for (auto& host : hosts) {
    std::string what;
    bool used = false;
    for (auto* w : remote) {
      if (w->host != host)
        continue;
      used = used || serves(judges, *w);
      auto* closest = closest_judge(judges, *w);
      what += (what.empty() ? "" : "; ") + served_judge_text(*w);
      if (closest)
        what += ", which differs from judge " + closest->name + ": "
                + judge_difference(*closest, *w);
    }
    if (!used)
      out.push_back("host " + host + " serves " + what
                    + "; it serves no judge of this run, so its workers are "
                      "not used");
  }
  return out;
}

} // namespace ij
