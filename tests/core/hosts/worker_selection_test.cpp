// Which of the directory's workers a run uses (core/hosts/worker_selection):
// every worker of its judges' exact settings, once, in order; a judge nobody
// serves and a calibration map not loaded are errors naming them.
#include <catch2/catch.hpp>

#include "core/hosts/worker_key.hpp"
#include "core/hosts/worker_selection.hpp"
#include "messages/error.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

judge_spec judge(const std::string& name, const std::string& model) {
  judge_spec s;
  s.name = name;
  s.type = "openai";
  s.model = model;
  s.base_url = "http://127.0.0.1:8000/v1";
  return s;
}

judge_info worker_of(const judge_spec& s) {
  judge_info i;
  i.judge_id = judge_id_of(s);
  i.host = "local";
  i.name = s.name;
  i.adapter_type = s.type;
  i.model = s.model;
  i.temperature = s.temperature;
  i.settings_key = worker_key_of(s);
  return i;
}

} // namespace

TEST_CASE("worker selection: the workers of the run's judges, in order") {
  run_config cfg;
  cfg.judges = {judge("a", "m1"), judge("b", "m2")};
  auto seeded = judge("a", "m1");
  seeded.seed = 3; // another run's worker of the same judge id
  std::vector<judge_info> workers{
    worker_of(cfg.judges[1]), worker_of(seeded), worker_of(judge("c", "m3")),
    worker_of(cfg.judges[0]), worker_of(cfg.judges[1])};
  auto picked = select_workers(cfg, workers);
  REQUIRE(picked);
  CHECK(*picked == std::vector<std::size_t>{0, 3, 4});
}

TEST_CASE("worker selection: a judge nobody serves is named") {
  run_config cfg;
  cfg.judges = {judge("a", "m1"), judge("b", "m2")};
  auto picked = select_workers(cfg, {worker_of(cfg.judges[0])});
  REQUIRE_FALSE(picked);
  CHECK(picked.error() == errc::no_worker);
  CHECK_THAT(test::why(picked),
             Catch::Contains("no worker serves judge b (")
               && Catch::Contains(judge_id_of(cfg.judges[1])));
}

TEST_CASE("worker selection: a calibration map its client did not load") {
  run_config cfg;
  cfg.judges = {judge("a", "m1")};
  cfg.calibration = "maps.json";
  auto picked = select_workers(cfg, {worker_of(cfg.judges[0])});
  REQUIRE_FALSE(picked);
  CHECK(picked.error() == errc::bad_config);
  CHECK_THAT(test::why(picked),
             Catch::Contains("calibration map maps.json was not loaded"));
}
