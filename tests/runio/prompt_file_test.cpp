// Declared prompts read into a configuration (issue 29): checked, pinned
// by SHA-256.
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "core/prompts/prompt.hpp"
#include "core/sha256.hpp"
#include "runio/prompt_file.hpp"

using namespace ij;

namespace {

struct temp_files {
  std::string dir;
  temp_files() {
    char tmpl[] = "/tmp/ij-prompt-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~temp_files() {
    for (auto& f : written)
      std::remove(f.c_str());
    ::rmdir(dir.c_str());
  }
  std::string write(const std::string& name, const std::string& text) {
    auto path = dir + "/" + name;
    std::ofstream{path} << text;
    written.push_back(path);
    return path;
  }
  std::vector<std::string> written;
};

run_config with_prompt(const std::string& id, const std::string& file,
                       const std::string& sha = {}) {
  run_config cfg;
  cfg.source = "c.json";
  judge_spec j;
  j.name = "j";
  j.type = "openai";
  j.model = "m";
  j.prompt.id = id;
  j.prompt.file = file;
  j.prompt.sha256 = sha;
  cfg.judges.push_back(j);
  return cfg;
}

} // namespace

TEST_CASE("prompt files: read, recorded normalised with their SHA-256") {
  temp_files t;
  t.write("p.txt", "A={{answer_a}} B={{answer_b}}");
  // A configuration file's relative paths were made its directory's before
  // (tools/config_file's resolve_config_paths, tests/tools/config_file_test).
  auto cfg = with_prompt("team/v1", t.dir + "/./p.txt");
  REQUIRE_FALSE(attach_prompts(cfg));
  auto& p = cfg.judges[0].prompt;
  CHECK(p.file == t.dir + "/p.txt");
  CHECK(p.sha256 == sha256_hex("A={{answer_a}} B={{answer_b}}"));
  REQUIRE(p.loaded);
  CHECK(prompts_of(cfg.judges[0]).numeric->render("1", "2") == "A=1 B=2");
  // Attached once: again is a no-op.
  CHECK_FALSE(attach_prompts(cfg));
  // The same file with its SHA declared (a resumed run's manifest).
  auto pinned = with_prompt("team/v1", t.dir + "/p.txt", p.sha256);
  CHECK_FALSE(attach_prompts(pinned));
}

TEST_CASE("prompt files: an edited file, a bad template, a built-in id with "
          "other bytes") {
  temp_files t;
  auto path = t.write("p.txt", "A={{answer_a}} B={{answer_b}}!");
  auto edited =
    with_prompt("team/v1", path, sha256_hex("A={{answer_a}} B={{answer_b}}"));
  auto err = attach_prompts(edited);
  REQUIRE(err);
  CHECK(err == errc::bad_config);
  CHECK(context_of(err).find("c.json: /judges/0/prompt: " + path + ": SHA-256 ")
        == 0);
  CHECK(context_of(err).find("the prompt file changed since the run started")
        != std::string::npos);

  auto bad = with_prompt("team/v1", t.write("q.txt", "{{answer_a}} only"));
  CHECK(
    context_of(attach_prompts(bad)).find("must hold {{answer_b}} exactly once")
    != std::string::npos);

  auto reused = with_prompt(std::string{judge_prompt_id}, path);
  CHECK(context_of(attach_prompts(reused))
          .find("the id \"invariance-checker/judge/v1\" is a built-in "
                "prompt's, and the file's "
                "bytes are not that prompt's")
        != std::string::npos);
  auto same =
    with_prompt(std::string{judge_prompt_id},
                t.write("v1.txt", std::string{judge_prompt_template()}));
  REQUIRE_FALSE(attach_prompts(same));
  CHECK_FALSE(same.judges[0].prompt.declared()); // the built-in itself
  CHECK(same.judges[0].prompt == prompt_choice{});

  auto gone = with_prompt("team/v1", t.dir + "/none.txt");
  auto io = attach_prompts(gone);
  CHECK(io == errc::io_failed);
  CHECK(
    context_of(io).find("cannot read the prompt file " + t.dir + "/none.txt")
    != std::string::npos);
}
