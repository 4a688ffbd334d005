// calibration_bench: does confidence-sequential voting pay? (issue 16)
//
// One run of the built `invjudge`, in a fresh temporary directory:
//   1. synthetic labelled pairs (invjudge gen-pairs), split in two halves;
//   2. the first half judged once per pair by stub:noisy:ERR (a declared
//      error rate, decision probabilities that carry signal), and
//      `invjudge calibrate` on that audit;
//   3. the second half judged with fixed votes = 5, k = 3 (the baseline) and
//      with the map and stop.probability = P, same judge, same pairs.
// Prints judge calls per judged pair and accuracy against the labels for
// both, and the targets: at most 1.5 calls per pair, accuracy no worse than
// the baseline's. The comparison runs twice: with the stub judge, and with
// an `openai` judge with "logprobs": true against a fake OpenAI-compatible
// server the benchmark starts on 127.0.0.1 (tests/http/fake_apis), whose
// model errs at the same declared rate and returns the decision token's
// log-probabilities (the stub's noise model: they carry signal). Exit 0 when
// the targets hold for both, 1 when one does not, 2 on a failed step.
//
//   calibration_bench [--pairs N] [--error ERR] [--threshold P] [--keep]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <rapidjson/document.h>

#include "adapters/noisy_judge.hpp"
#include "adapters/stub_judges.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/http/fake_apis.hpp"

namespace {

struct figures {
  std::uint64_t judged = 0;   // pairs with at least one judge call
  std::uint64_t calls = 0;    // judge calls made
  std::uint64_t labelled = 0; // judged pairs with a label
  std::uint64_t right = 0;    // outcome equal to the label
  std::uint64_t undecided = 0;
  double seconds = 0;
};

int sh(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// Reads the pair lines of a run's output.
figures read_pairs(const std::string& path) {
  figures f;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document d;
    d.Parse(line.data(), line.size());
    if (d.HasParseError() || !d.IsObject() || !d.HasMember("kind")
        || std::string{d["kind"].GetString()} != "pair")
      continue;
    auto& v = d["votes"];
    std::uint64_t cast = v["equivalent"].GetUint64()
                         + v["different"].GetUint64() + v["abstain"].GetUint64()
                         + v["parse_error"].GetUint64()
                         + v["faults"].GetUint64();
    if (cast == 0)
      continue; // absent (I1): no judge was asked
    ++f.judged;
    f.calls += cast;
    if (!d.HasMember("label") || !d["label"].IsBool())
      continue;
    ++f.labelled;
    if (!d["equivalent"].IsBool())
      ++f.undecided;
    else if (d["equivalent"].GetBool() == d["label"].GetBool())
      ++f.right;
  }
  return f;
}

// The fake server's model: stub:noisy's noise model (adapters/noisy_judge)
// over the request's prompt and seed (the judge's seed plus the vote
// index): wrong at about the declared rate, and the decision token's
// log-probabilities say how sure it was.
void noisy_model(double err, const rapidjson::Document& req,
                 ij::test::fake_verdict& v,
                 std::vector<std::pair<std::string, double>>& alternatives) {
  std::string prompt;
  if (req.HasMember("messages") && req["messages"].IsArray())
    for (auto& m : req["messages"].GetArray())
      if (m.IsObject() && m.HasMember("content") && m["content"].IsString())
        prompt += m["content"].GetString();
  std::int64_t seed =
    req.HasMember("seed") && req["seed"].IsInt64() ? req["seed"].GetInt64() : 0;
  auto answers = ij::extract_answers(prompt);
  auto truth =
    answers
      ? ij::parse_judge_response(ij::numeric_rule_reply(answers->a, answers->b))
          .decision
      : ij::judge_decision::abstain;
  v.numeric_a = v.numeric_b = "NULL"; // as stub:noisy writes them
  if (truth != ij::judge_decision::equivalent
      && truth != ij::judge_decision::different) {
    v.decision = "ABSTAIN";
    v.reason = "The answers cannot be read.";
    alternatives = {{"ABST", std::log(0.9)},
                    {"EQUIV", std::log(0.05)},
                    {"DIFF", std::log(0.05)}};
    return;
  }
  // The seed already holds the vote index (the judge's seed plus it).
  auto [sure, e, right] = ij::draw_noise(err, prompt, seed, 0);
  const bool equivalent = (truth == ij::judge_decision::equivalent) == right;
  const double p = std::max(1.0 - e * e, 1e-6);
  const double other = std::max(0.8 * (1.0 - p), 1e-9),
               abstain = std::max(0.2 * (1.0 - p), 1e-9);
  v.decision = equivalent ? "EQUIVALENT" : "DIFFERENT";
  v.reason =
    sure ? "The answers were clear." : "The answers were hard to read.";
  alternatives = {{"EQUIV", std::log(equivalent ? p : other)},
                  {"DIFF", std::log(equivalent ? other : p)},
                  {"ABST", std::log(abstain)}};
}

void print(const char* name, const figures& f) {
  std::printf("  %-34s %8llu %10.3f %11.2f%% %9llu %8.2f\n", name,
              static_cast<unsigned long long>(f.judged),
              f.judged ? double(f.calls) / double(f.judged) : 0.0,
              f.labelled ? 100.0 * double(f.right) / double(f.labelled) : 0.0,
              static_cast<unsigned long long>(f.undecided), f.seconds);
}

// One comparison in `dir` for the judge `judge_json` (the configuration's
// judge fields); false when a step failed.
bool compare(const std::string& dir, const std::string& label,
             const std::string& judge_json, unsigned pairs,
             const std::string& threshold, bool& met) {
  const std::string bin = IJ_INVJUDGE;
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
  };
  auto config = [&](const std::string& audit, const std::string& extra) {
    return "{" + judge_json + "," + extra + "\"audit\":{\"path\":\"" + dir + "/"
           + audit + "\"}}";
  };
  write("calibrate.json", config("calibrate.audit.jsonl", "\"votes\":1,"));
  write("fixed.json",
        config("fixed.audit.jsonl", "\"votes\":5,\"min_agreement\":3,"));
  write("sequential.json",
        config("sequential.audit.jsonl",
               "\"votes\":5,\"min_agreement\":3,\"calibration\":\"" + dir
                 + "/map.json\",\"stop\":{\"probability\":" + threshold
                 + "},"));
  const auto half = std::to_string(pairs / 2);
  const std::string q = " 2>>" + dir + "/stderr.txt";
  std::vector<std::string> steps{
    bin + " gen-pairs " + std::to_string(pairs) + " > " + dir + "/all.jsonl",
    "head -n " + half + " " + dir + "/all.jsonl > " + dir + "/calibrate.jsonl",
    "tail -n +" + std::to_string(pairs / 2 + 1) + " " + dir + "/all.jsonl > "
      + dir + "/evaluate.jsonl",
    bin + " run --no-progress --pairs " + dir + "/calibrate.jsonl --config "
      + dir + "/calibrate.json --out /dev/null" + q,
    bin + " calibrate " + dir + "/calibrate.audit.jsonl --out " + dir
      + "/map.json" + q};
  for (auto& s : steps)
    if (sh(s) != 0) {
      std::fprintf(stderr,
                   "calibration_bench: failed: %s (see %s/stderr.txt)\n",
                   s.c_str(), dir.c_str());
      return false;
    }
  auto timed_run = [&](const std::string& name, figures& f) {
    auto t0 = std::chrono::steady_clock::now();
    int rc = sh(bin + " run --no-progress --pairs " + dir
                + "/evaluate.jsonl --config " + dir + "/" + name
                + ".json --out " + dir + "/" + name + ".out.jsonl" + q);
    auto secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
        .count();
    if (rc != 0)
      return false;
    f = read_pairs(dir + "/" + name + ".out.jsonl");
    f.seconds = secs;
    return true;
  };
  figures fixed, seq;
  if (!timed_run("fixed", fixed) || !timed_run("sequential", seq)) {
    std::fprintf(stderr,
                 "calibration_bench: a run failed (see %s/stderr.txt)\n",
                 dir.c_str());
    return false;
  }
  std::printf("calibration_bench: judge %s, calibrated on %s labelled pairs "
              "(1 vote each), measured on the other %s\n",
              label.c_str(), half.c_str(), half.c_str());
  std::printf("  %-34s %8s %10s %12s %9s %8s\n", "", "judged", "calls/pair",
              "accuracy", "undecided", "seconds");
  print("fixed votes = 5, k = 3 (baseline)", fixed);
  print(("stop.probability = " + threshold).c_str(), seq);
  const double cpp = seq.judged ? double(seq.calls) / double(seq.judged) : 99.0;
  const double acc_seq =
    seq.labelled ? double(seq.right) / double(seq.labelled) : 0;
  const double acc_fixed =
    fixed.labelled ? double(fixed.right) / double(fixed.labelled) : 0;
  const bool calls_ok = cpp <= 1.5, acc_ok = acc_seq >= acc_fixed;
  std::printf("  target calls/pair <= 1.5: %.3f %s\n", cpp,
              calls_ok ? "met" : "MISSED");
  std::printf("  target accuracy >= baseline: %.2f%% vs %.2f%% %s\n",
              100 * acc_seq, 100 * acc_fixed, acc_ok ? "met" : "MISSED");
  met = met && calls_ok && acc_ok;
  return true;
}

} // namespace

int main(int argc, char** argv) {
  unsigned pairs = 4000;
  std::string err = "0.1", threshold = "0.99";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--pairs" && i + 1 < argc)
      pairs = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--error" && i + 1 < argc)
      err = argv[++i];
    else if (a == "--threshold" && i + 1 < argc)
      threshold = argv[++i];
    else if (a == "--keep")
      keep = true;
    else {
      std::fprintf(stderr, "usage: calibration_bench [--pairs N] [--error ERR] "
                           "[--threshold P] [--keep]\n");
      return 2;
    }
  }
  char tmpl[] = "/tmp/ij-calibration-bench-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    std::perror("mkdtemp");
    return 2;
  }
  const std::string dir = tmpl;
  bool met = true;
  bool ok =
    sh("mkdir " + dir + "/stub " + dir + "/http") == 0
    && compare(dir + "/stub", "stub:noisy:" + err,
               "\"judge\":\"stub:noisy:" + err + "\"", pairs, threshold, met);
  if (ok) {
    // The same comparison through the HTTP path: an openai judge asking for
    // log-probabilities from a fake server erring at the declared rate.
    ij::test::fake_api_options o;
    o.kind = ij::test::api_kind::openai;
    o.model_replies = true;
    o.record_requests = false;
    o.threads = 2;
    const double rate = std::stod(err);
    o.decide =
      [rate](const rapidjson::Document& req, ij::test::fake_verdict& v,
             std::vector<std::pair<std::string, double>>& alternatives) {
        noisy_model(rate, req, v, alternatives);
      };
    ij::test::fake_api fake(o);
    ok = compare(dir + "/http",
                 "openai (fake server, logprobs, error " + err + ")",
                 "\"judges\":[{\"name\":\"noisy-http\",\"type\":\"openai\","
                 "\"model\":\"judge-model\",\"base_url\":\""
                   + fake.base_url()
                   + "/v1\",\"temperature\":0,\"seed\":1,\"timeout_ms\":20000,"
                     "\"max_in_flight\":16,\"logprobs\":true}]",
                 pairs, threshold, met);
  }
  if (keep)
    std::printf("  files kept in %s\n", dir.c_str());
  else
    sh("rm -rf " + dir);
  if (!ok)
    return 2;
  return met ? 0 : 1;
}
