// core/calibration/calibration: isotonic maps, their quality, the map file, a
// pair's calibrated probability (issue 16).
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "core/calibration/calibration.hpp"
#include "core/sha256.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

double uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// A synthetic judge: each vote's chance of being right is c, uniform in
// [0.5, 1]; it reports report(c). One vote per pair.
template <class Report>
std::vector<labelled_vote> synthetic(std::size_t n, std::uint64_t seed,
                                     Report report) {
  std::mt19937_64 rng(seed);
  std::vector<labelled_vote> out;
  for (std::size_t i = 0; i < n; ++i) {
    double c = 0.5 + 0.5 * uniform(rng);
    bool right = uniform(rng) < c;
    out.push_back({report(c), right, i});
  }
  return out;
}

calibration_fit fit_of(const std::vector<labelled_vote>& votes,
                       const std::string& id = "stub:x t=0") {
  fit_options opts;
  opts.bootstrap = 200;
  std::string error;
  auto fit = fit_calibration(id, "decision_probs", votes, opts);
  error = ::test::why(fit);
  REQUIRE(fit);
  return *fit;
}

} // namespace

TEST_CASE("isotonic regression pools adjacent violators and stays monotone") {
  // Right at 0.2, wrong at 0.4, right at 0.6 and 0.8: 0.2 and 0.4 pool.
  std::vector<labelled_vote> v{
    {0.2, true, 0}, {0.4, false, 1}, {0.6, true, 2}, {0.8, true, 3}};
  auto m = fit_isotonic(v);
  // n = 4: values are clamped to [1/8, 7/8].
  CHECK(m.apply(0.2) == Approx(0.5));
  CHECK(m.apply(0.4) == Approx(0.5));
  CHECK(m.apply(0.8) == Approx(0.875));
  CHECK(m.apply(0.0) == Approx(0.5));   // flat below the first knot
  CHECK(m.apply(1.0) == Approx(0.875)); // and above the last
  for (std::size_t i = 1; i < m.raw.size(); ++i) {
    CHECK(m.raw[i] > m.raw[i - 1]);
    CHECK(m.calibrated[i] >= m.calibrated[i - 1]);
  }
}

TEST_CASE("isotonic regression pools equal confidences into one point") {
  std::vector<labelled_vote> v{
    {0.7, true, 0}, {0.7, false, 1}, {0.7, true, 2}, {0.7, true, 3}};
  auto m = fit_isotonic(v);
  REQUIRE(m.raw.size() == 1);
  CHECK(m.apply(0.7) == Approx(0.75));
}

TEST_CASE("a calibrated judge's map stays near the identity") {
  auto votes = synthetic(20000, 7, [](double c) { return c; });
  auto fit = fit_of(votes);
  for (double x : {0.6, 0.7, 0.8, 0.9})
    CHECK(std::fabs(fit.map.apply(x) - x) < 0.05);
  CHECK(fit.raw.ece.value < 0.03);
  CHECK(fit.calibrated.ece.value < 0.03);
  CHECK(fit.pairs == 20000);
  CHECK(fit.votes == 20000);
}

TEST_CASE("an overconfident judge's calibrated ECE is below its raw ECE") {
  // Reports sqrt-ish certainty: 0.75 right is said as 0.97.
  auto votes = synthetic(
    5000, 11, [](double c) { return 1.0 - (1.0 - c) * (1.0 - c) * 0.5; });
  auto fit = fit_of(votes);
  CHECK(fit.calibrated.ece.value < fit.raw.ece.value);
  // Not just by chance: the intervals do not overlap.
  CHECK(fit.calibrated.ece.hi < fit.raw.ece.lo);
  CHECK(fit.calibrated.brier.value < fit.raw.brier.value);
  CHECK(fit.calibrated.log_loss.value < fit.raw.log_loss.value);
  // The map pulls 0.97 down towards the truth (0.75).
  CHECK(fit.map.apply(0.97) == Approx(0.75).margin(0.06));
  // Percentile intervals; ECE is biased upward on resamples, so only
  // Brier and log loss are sure to hold their estimate.
  for (auto* e : {&fit.raw.brier, &fit.calibrated.brier, &fit.raw.log_loss,
                  &fit.calibrated.log_loss}) {
    CHECK(e->lo <= e->value);
    CHECK(e->value <= e->hi);
  }
  CHECK(fit.raw.ece.lo < fit.raw.ece.hi);
  CHECK(fit.calibrated.ece.lo < fit.calibrated.ece.hi);
}

TEST_CASE("fitting is seeded: the same votes and seed give the same fit") {
  auto votes = synthetic(500, 3, [](double c) { return c; });
  auto a = fit_of(votes), b = fit_of(votes);
  CHECK(a.calibrated.ece.value == b.calibrated.ece.value);
  CHECK(a.raw.brier.lo == b.raw.brier.lo);
  CHECK(a.map.calibrated == b.map.calibrated);
}

TEST_CASE("too few labelled pairs is an error saying why with the count") {
  // 60 votes, but on 30 pairs (two per pair): pairs are what counts.
  std::vector<labelled_vote> votes;
  for (std::uint64_t i = 0; i < 60; ++i)
    votes.push_back({0.9, i % 3 != 0, i / 2});
  fit_options opts;
  std::string error;
  auto fit = fit_calibration("stub:y t=0", "vote_share", votes, opts);
  error = ::test::why(fit);
  CHECK_FALSE(fit);
  CHECK(error.find("stub:y t=0") != std::string::npos);
  CHECK(error.find("30 labelled pair(s)") != std::string::npos);
  CHECK(error.find("60 vote(s)") != std::string::npos);
  CHECK(error.find("at least 50") != std::string::npos);
  opts.min_pairs = 30;
  error = ::test::why(fit_calibration("stub:y t=0", "vote_share", votes, opts));
  CHECK(error.empty());
}

TEST_CASE("ECE, Brier score and log loss of known predictions") {
  std::vector<double> p{0.9, 0.9, 0.1, 0.6};
  std::vector<bool> r{true, false, false, true};
  // Bins: 0.9 (two, accuracy 0.5), 0.1 (accuracy 0), 0.6 (accuracy 1).
  CHECK(expected_calibration_error(p, r) == Approx((2 * 0.4 + 0.1 + 0.4) / 4));
  CHECK(brier_score(p, r) == Approx((0.01 + 0.81 + 0.01 + 0.16) / 4));
  CHECK(
    log_loss(p, r)
    == Approx(-(std::log(0.9) + std::log(0.1) + std::log(0.9) + std::log(0.6))
              / 4));
  CHECK(log_loss({1.0}, {false}) == Approx(-std::log(1e-6)));
  CHECK(expected_calibration_error({}, {}) == 0.0);
}

TEST_CASE("raw confidence: the decision's probability, else the vote share") {
  std::vector<double> probs{0.7, 0.2, 0.1};
  CHECK(raw_confidence(judge_decision::equivalent, probs, 1, 0) == 0.7);
  CHECK(raw_confidence(judge_decision::different, probs, 1, 0) == 0.2);
  // A judge without decision probabilities: its vote share.
  CHECK(raw_confidence(judge_decision::equivalent, {}, 3, 1) == 0.75);
  CHECK(raw_confidence(judge_decision::different, {}, 3, 1) == 0.25);
}

TEST_CASE("a pair's probability adds its votes' calibrated log-odds") {
  calibration_map identity{"j", "decision_probs", {0.0, 1.0}, {0.0, 1.0}};
  std::vector<vote_evidence> one{
    {&identity, judge_decision::equivalent, {0.8, 0.15, 0.05}}};
  CHECK(*equivalence_probability(one) == Approx(0.8));
  one[0].decision = judge_decision::different;
  one[0].decision_probs = {0.15, 0.8, 0.05};
  CHECK(*equivalence_probability(one) == Approx(0.2));
  // Two agreeing votes of 0.8: odds 4 * 4 = 16.
  std::vector<vote_evidence> two{
    {&identity, judge_decision::equivalent, {0.8, 0.1, 0.1}},
    {&identity, judge_decision::equivalent, {0.8, 0.1, 0.1}}};
  CHECK(*equivalence_probability(two) == Approx(16.0 / 17.0));
  // Disagreeing votes of equal weight cancel.
  two[1].decision = judge_decision::different;
  two[1].decision_probs = {0.1, 0.8, 0.1};
  CHECK(*equivalence_probability(two) == Approx(0.5));
  // ABSTAIN, or a vote whose judge has no map, adds nothing.
  std::vector<vote_evidence> none{
    {&identity, judge_decision::abstain, {0.1, 0.1, 0.8}},
    {nullptr, judge_decision::equivalent, {0.9, 0.05, 0.05}}};
  CHECK_FALSE(equivalence_probability(none));
}

TEST_CASE(
  "a judge without decision probabilities is calibrated on vote shares") {
  // Three votes, two EQUIVALENT: shares 2/3 and 1/3, through the map.
  calibration_map m{"j", "vote_share", {0.0, 1.0}, {0.2, 0.9}};
  std::vector<vote_evidence> votes{{&m, judge_decision::equivalent, {}},
                                   {&m, judge_decision::equivalent, {}},
                                   {&m, judge_decision::different, {}}};
  double eq = m.apply(2.0 / 3.0), diff = m.apply(1.0 / 3.0);
  double log_odds = 2 * std::log(eq / (1 - eq)) - std::log(diff / (1 - diff));
  CHECK(*equivalence_probability(votes)
        == Approx(1.0 / (1.0 + std::exp(-log_odds))));
}

namespace {

std::string file_of(std::vector<calibration_fit> fits) {
  fit_options opts;
  return calibration_file_json(fits, opts);
}

calibration_fit hand_fit(std::string id, std::vector<double> raw,
                         std::vector<double> cal) {
  calibration_fit f;
  f.map = {std::move(id), "decision_probs", std::move(raw), std::move(cal)};
  f.pairs = 100;
  f.votes = 120;
  return f;
}

} // namespace

TEST_CASE("the map file reads back what calibrate wrote, with its SHA-256") {
  auto votes = synthetic(300, 5, [](double c) { return c; });
  auto fit = fit_of(votes, "stub:a t=0");
  auto text = file_of({fit, hand_fit("stub:b t=0", {0.5, 1.0}, {0.6, 0.9})});
  std::string error;
  auto set = parse_calibration_file(text, "MAP.json");
  error = ::test::why(set);
  REQUIRE(set);
  CHECK(set->sha256 == sha256_hex(text));
  REQUIRE(set->find("stub:a t=0"));
  CHECK(set->find("stub:a t=0")->calibrated == fit.map.calibrated);
  CHECK(set->find("stub:a t=0")->raw == fit.map.raw);
  CHECK(set->judges.at("stub:a t=0").raw.ece.value == fit.raw.ece.value);
  CHECK(set->judges.at("stub:b t=0").pairs == 100);
  CHECK(set->find("stub:c t=0") == nullptr);
}

TEST_CASE("an edited or malformed map file is refused, naming what and where") {
  std::string error;
  auto good =
    file_of({hand_fit("stub:a t=0", {0.5, 0.8, 1.0}, {0.6, 0.7, 0.9})});
  SECTION("a value changed after calibrate wrote it") {
    auto edited = good;
    edited.replace(edited.find("0.7,"), 4, "0.8,");
    error = ::test::why(parse_calibration_file(edited, "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error.find("MAP.json: /checksum") != std::string::npos);
    CHECK(error.find("edited") != std::string::npos);
  }
  SECTION("a map that is not monotone, even with a matching checksum") {
    auto bad =
      file_of({hand_fit("stub:a t=0", {0.5, 0.8, 1.0}, {0.6, 0.9, 0.7})});
    error = ::test::why(parse_calibration_file(bad, "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error
          == "MAP.json: /judges/0: is not monotone: calibrated value "
             "falls at knot 2");
  }
  SECTION("raw values out of order") {
    auto bad = file_of({hand_fit("stub:a t=0", {0.5, 0.5}, {0.6, 0.7})});
    error = ::test::why(parse_calibration_file(bad, "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error.find("/judges/0: raw values are not increasing")
          != std::string::npos);
  }
  SECTION("a probability above 1") {
    auto bad = file_of({hand_fit("stub:a t=0", {0.5, 0.9}, {0.6, 1.5})});
    error = ::test::why(parse_calibration_file(bad, "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error.find("outside [0, 1] at knot 1") != std::string::npos);
  }
  SECTION("two maps for one judge") {
    auto f = hand_fit("stub:a t=0", {0.5}, {0.6});
    error = ::test::why(parse_calibration_file(file_of({f, f}), "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error == "MAP.json: /judges/1: judge stub:a t=0 has a map already");
  }
  SECTION("not a map at all") {
    error =
      ::test::why(parse_calibration_file("{\"format\":\"x\"}", "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error.find("/format") != std::string::npos);
    error = ::test::why(parse_calibration_file("[1,2", "MAP.json"));
    CHECK_FALSE(error.empty());
    CHECK(error.find("not a calibration map") != std::string::npos);
  }
  error = ::test::why(parse_calibration_file(good, "MAP.json"));
  CHECK(error.empty());
}

TEST_CASE(
  "a map's values are clamped as calibrate writes them: no certainty from a "
  "hand-made 0/1 map") {
  auto text =
    file_of({hand_fit("stub:a t=0", {0.0, 0.5, 1.0}, {0.0, 0.5, 1.0})});
  auto set = parse_calibration_file(text, "MAP.json");
  REQUIRE(set);
  auto* m = set->find("stub:a t=0");
  REQUIRE(m);
  // 120 votes: [1/240, 1 - 1/240], as fit_isotonic clamps.
  CHECK(m->apply(0.0) == Approx(1.0 / 240));
  CHECK(m->apply(1.0) == Approx(1.0 - 1.0 / 240));
  CHECK(m->apply(0.5) == Approx(0.5));
}

TEST_CASE(
  "a map without its source or its votes, or an empty or non-JSON file, is "
  "refused saying how to make a good one") {
  std::string error;
  SECTION("no source") {
    auto f = hand_fit("stub:a t=0", {0.5, 1.0}, {0.6, 0.9});
    f.map.source.clear();
    error = ::test::why(parse_calibration_file(file_of({f}), "MAP.json"));
    CHECK(error.find("MAP.json: /judges/0: has no \"source\"")
          != std::string::npos);
    CHECK(error.find("invjudge calibrate") != std::string::npos);
  }
  SECTION("no votes") {
    auto f = hand_fit("stub:a t=0", {0.5, 1.0}, {0.6, 0.9});
    f.votes = 0;
    error = ::test::why(parse_calibration_file(file_of({f}), "MAP.json"));
    CHECK(error.find("MAP.json: /judges/0: rests on no \"votes\"")
          != std::string::npos);
  }
  SECTION("an empty file") {
    error = ::test::why(parse_calibration_file(" \n", "MAP.json"));
    CHECK(
      error
      == "MAP.json: the file is empty, not a calibration map; write one with "
         "`invjudge calibrate AUDIT.jsonl... --out MAP.json`");
  }
  SECTION("not JSON") {
    error = ::test::why(parse_calibration_file("map", "MAP.json"));
    CHECK(error.find("MAP.json: not a calibration map (not a JSON object: ")
          == 0);
    CHECK(error.find("write one with `invjudge calibrate")
          != std::string::npos);
  }
}

TEST_CASE("a judge's confidence source, and which maps fit it") {
  judge_spec noisy;
  noisy.type = "stub";
  noisy.model = "noisy:0.1";
  CHECK(confidence_source(noisy) == "decision_probs");
  judge_spec numeric;
  numeric.type = "stub";
  numeric.model = "numeric";
  CHECK(confidence_source(numeric) == "vote_share");
  judge_spec http;
  http.type = "openai";
  http.model = "m";
  CHECK(confidence_source(http) == "vote_share");
  http.logprobs = true;
  CHECK(confidence_source(http) == "decision_probs");
  CHECK(source_fits("decision_probs", "decision_probs"));
  CHECK(source_fits("mixed", "decision_probs"));
  CHECK_FALSE(source_fits("decision_probs", "vote_share"));
  CHECK_FALSE(source_fits("vote_share", "decision_probs"));
  CHECK_FALSE(source_fits("mixed", "vote_share"));
}
