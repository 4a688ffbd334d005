// Judges that cannot work are configuration errors before anything is
// judged (exit 3, no audit), naming the value: a short name whose '@' is
// followed by no URL, a base_url that is not a URL, a directory as --config.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

cli_result run_with(const temp_dir& dir, const std::string& args) {
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                  "\n");
  return invjudge(dir, "run --pairs p.jsonl --audit a.jsonl " + args);
}

std::string judge_config(const std::string& type, const std::string& base_url) {
  return R"({"judges":[{"type":")" + type + R"(","model":"m","base_url":")"
         + base_url
         + R"(","temperature":0,"timeout_ms":1000,"max_in_flight":1}]})";
}

} // namespace

TEST_CASE("the judge name openai:x@notaurl is a configuration error naming the "
          "value, not a model") {
  temp_dir dir;
  auto r = run_with(dir, "--judge openai:x@notaurl");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("--judge openai:x@notaurl: judge name 'openai:x@notaurl': "
                   "'notaurl' after "
                   "the '@' is not an http:// or https:// URL")
        != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  // The same in a configuration's "judge".
  write_file(dir.file("c.json"),
             R"({"judge":"ollama:qwen2.5:7b@gpu-3:11434"})");
  auto c = run_with(dir, "--config c.json");
  CHECK(c.exit_code == 3);
  CHECK(c.err.find("c.json: /judge: judge name "
                   "'ollama:qwen2.5:7b@gpu-3:11434': 'gpu-3:11434' "
                   "after the '@'")
        != std::string::npos);
}

TEST_CASE("a base_url that is not a URL is a configuration error naming it") {
  temp_dir dir;
  write_file(dir.file("c.json"), judge_config("openai", "notaurl"));
  auto r = run_with(dir, "--config c.json");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find(
      "c.json: /judges/0 (openai:m): openai judge: base_url 'notaurl' is not a "
      "usable URL: no scheme (http:// or https://)")
    != std::string::npos);
  CHECK(r.err.find("bad the") == std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());

  // Ollama's schemeless host:port is OLLAMA_HOST's rule, not a base_url's.
  write_file(dir.file("c.json"), judge_config("ollama", "gpu-3:11434"));
  auto o = run_with(dir, "--config c.json");
  CHECK(o.exit_code == 3);
  CHECK(o.err.find("ollama judge: base_url 'gpu-3:11434' is not a usable URL")
        != std::string::npos);

  write_file(dir.file("c.json"), judge_config("anthropic", "ftp://host"));
  auto f = run_with(dir, "--config c.json");
  CHECK(f.exit_code == 3);
  CHECK(
    f.err.find(
      "base_url 'ftp://host' is not a usable URL: unsupported URL scheme 'ftp'")
    != std::string::npos);

  // A URL with credentials is refused without repeating it.
  write_file(dir.file("c.json"),
             judge_config("openai", "http://u:sk-SECRET@host"));
  auto k = run_with(dir, "--config c.json");
  CHECK(k.exit_code == 3);
  CHECK(k.err.find("credentials in the URL are not supported")
        != std::string::npos);
  CHECK(k.err.find("sk-SECRET") == std::string::npos);
}

TEST_CASE("a bad $OPENAI_BASE_URL is named as such (exit 3)") {
  temp_dir dir;
  REQUIRE(::setenv("OPENAI_BASE_URL", "localhost:8000", 1) == 0);
  auto r = run_with(dir, "--judge openai:m");
  ::unsetenv("OPENAI_BASE_URL");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find(
      "openai judge: $OPENAI_BASE_URL 'localhost:8000' is not a usable URL: no "
      "scheme")
    != std::string::npos);
}

TEST_CASE("a directory given as --config says it is a directory (exit 3)") {
  temp_dir dir;
  auto r = run_with(dir, "--config .");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find(".: is a directory, not a configuration file")
        != std::string::npos);
  CHECK(r.err.find("empty") == std::string::npos);
  auto s = invjudge(dir, "selftest --config .");
  CHECK(s.exit_code == 3);
  CHECK(s.err.find("is a directory") != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
}

TEST_CASE("an empty --config file says it is empty (exit 3)") {
  temp_dir dir;
  write_file(dir.file("c.json"), " \n");
  auto r = run_with(dir, "--config c.json");
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find(
      "c.json: the file is empty (a configuration is one JSON object; {} takes "
      "every default)")
    != std::string::npos);
  write_file(dir.file("c.json"), "{}");
  CHECK(run_with(dir, "--config c.json").exit_code == 0);
}
