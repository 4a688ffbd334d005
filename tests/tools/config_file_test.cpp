// Reading a configuration file (tools/config_file): the shipped files read,
// a missing file named, and a read configuration's judges bound.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "adapters/adapter_factory.hpp"
#include "cli_support.hpp"
#include "tests/error_text.hpp"
#include "tools/config_file.hpp"

using namespace ij;

TEST_CASE("configs/default.json on disk is what the binary embeds") {
  std::string error;
  auto on_disk = load_config(ij::test::source_dir() + "/configs/default.json");
  error = ::test::why(on_disk);
  REQUIRE(on_disk);
  auto embedded = default_config();
  on_disk->source = embedded.source;
  CHECK(to_json(*on_disk) == to_json(embedded));
}

TEST_CASE("every shipped example configuration is valid") {
  for (auto name : {"voting-5", "ollama", "anthropic", "openai-compatible",
                    "hosts", "panel", "cascade", "logprobs", "constrained",
                    "calibrated", "answer-policy", "prompts"}) {
    std::string error;
    auto path = ij::test::source_dir() + "/configs/examples/" + name + ".json";
    auto cfg = load_config(path);
    error = ::test::why(cfg);
    INFO(path << ": " << error);
    CHECK(cfg);
  }
}

TEST_CASE("the prompts example reads its template next to it, whatever the "
          "working directory") {
  auto path = ij::test::source_dir() + "/configs/examples/prompts.json";
  auto cfg = command_config(path, std::nullopt);
  INFO(::test::why(cfg));
  REQUIRE(cfg);
  auto& qwen = cfg->judges[1];
  REQUIRE(qwen.non_numeric_prompt);
  CHECK(qwen.non_numeric_prompt->file
        == ij::test::source_dir() + "/configs/examples/prompts/same-value.txt");
  auto prompts = prompts_of(qwen);
  REQUIRE(prompts.non_numeric);
  CHECK(prompts.non_numeric->uses_problem());
  CHECK(prompts.numeric->id() == "invariance-checker/judge/v1");
}

TEST_CASE("a configuration's relative prompt files are its directory's, "
          "absolute ones stay") {
  ij::run_config cfg;
  ij::judge_spec j;
  j.prompt.id = "team/v1";
  j.prompt.file = "prompts/p.txt";
  ij::prompt_choice other;
  other.id = "team/v2";
  other.file = "/etc/q.txt";
  j.non_numeric_prompt = other;
  cfg.judges.push_back(j);
  ij::resolve_config_paths(cfg, "/srv/conf/run.json");
  CHECK(cfg.judges[0].prompt.file == "/srv/conf/prompts/p.txt");
  CHECK(cfg.judges[0].non_numeric_prompt->file == "/etc/q.txt");
  ij::resolve_config_paths(cfg,
                           "run.json"); // in the working directory: as they are
  CHECK(cfg.judges[0].prompt.file == "/srv/conf/prompts/p.txt");
}

TEST_CASE("a missing configuration file is named") {
  std::string error;
  error = ::test::why(load_config("/nonexistent/dir/c.json"));
  CHECK_FALSE(error.empty());
  CHECK(error.rfind("/nonexistent/dir/c.json: cannot open: ", 0) == 0);
}

TEST_CASE("judges that cannot be built are named with their pointer") {
  auto cfg = parse_config(R"({"judges":[{"name":"claude","type":"anthropic",
      "model":"claude-haiku-4-5","api_key_env":"IJ_TEST_SURELY_UNSET_KEY",
      "temperature":0,"timeout_ms":1000,"max_in_flight":1}]})",
                          "x.json");
  REQUIRE(cfg);
  auto bound = bind_judges(*cfg);
  REQUIRE_FALSE(bound);
  auto why = ::test::why(bound);
  CHECK(why.rfind("x.json: /judges/0 (claude): ", 0) == 0);
  CHECK(why.find("IJ_TEST_SURELY_UNSET_KEY") != std::string::npos);
  CHECK(bound.error() == ij::errc::bad_config);
}

TEST_CASE("a batched judge where no journal keeps its batches (a judge host, "
          "selftest) is "
          "a configuration error saying where batches go") {
  ::setenv("IJ_TEST_BATCH_HOST_KEY", "k", 1);
  auto cfg = parse_config(R"({"judges":[{"name":"b","type":"openai","model":"m",
      "base_url":"http://127.0.0.1:9","api_key_env":"IJ_TEST_BATCH_HOST_KEY",
      "temperature":0,"timeout_ms":1000,"max_in_flight":1,"batch":{"enabled":true}}]})",
                          "h.json");
  REQUIRE(cfg);
  auto bound = bind_judges(*cfg);
  ::unsetenv("IJ_TEST_BATCH_HOST_KEY");
  REQUIRE_FALSE(bound);
  CHECK(bound.error() == ij::errc::bad_config);
  CHECK(::test::why(bound)
        == "h.json: /judges/0 (b): judge 'b': batched votes need a journal for "
           "their batches: "
           "a run's audit (invjudge run) or the daemon's state (invjudge "
           "serve); a judge host "
           "or selftest does not batch (remove batch.enabled)");
}
