#include <initializer_list>

#include <catch2/catch.hpp>

#include "core/voting/vote_tally.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

constexpr auto EQ = judge_decision::equivalent;
constexpr auto DIFF = judge_decision::different;
constexpr auto ABST = judge_decision::abstain;
constexpr auto PERR = judge_decision::parse_error;

vote_tally tally(std::uint32_t n, std::uint32_t k,
                 std::initializer_list<judge_decision> ds,
                 std::uint32_t faults = 0) {
  vote_config cfg{n, k};
  REQUIRE_FALSE(validate(cfg));
  vote_tally t{cfg};
  for (auto d : ds)
    t.add(d);
  for (std::uint32_t i = 0; i < faults; ++i)
    t.add_fault();
  return t;
}

} // namespace

TEST_CASE("voting: validation accepts N/2 < k <= N") {
  CHECK_FALSE(validate(vote_config{1, 1}));
  CHECK_FALSE(validate(vote_config{2, 2}));
  CHECK_FALSE(validate(vote_config{3, 2}));
  CHECK_FALSE(validate(vote_config{3, 3}));
  CHECK_FALSE(validate(vote_config{4, 3}));
  CHECK_FALSE(validate(vote_config{5, 3}));
  CHECK_FALSE(validate(vote_config{}));
}

TEST_CASE("voting: validation errors name the values") {
  CHECK(::test::why(validate(vote_config{0, 0}))
        == "votes must be at least 1, got 0");
  CHECK(::test::why(validate(vote_config{0, 1}))
        == "votes must be at least 1, got 0");
  CHECK(::test::why(validate(vote_config{3, 1}))
        == "minAgreement 1 must be more than half of votes 3");
  CHECK(::test::why(validate(vote_config{4, 2}))
        == "minAgreement 2 must be more than half of votes 4");
  CHECK(::test::why(validate(vote_config{2, 1}))
        == "minAgreement 1 must be more than half of votes 2");
  CHECK(::test::why(validate(vote_config{3, 0}))
        == "minAgreement 0 must be more than half of votes 3");
  CHECK(::test::why(validate(vote_config{3, 4}))
        == "minAgreement 4 exceeds votes 3");
  CHECK(::test::why(validate(vote_config{1, 2}))
        == "minAgreement 2 exceeds votes 1");
}

TEST_CASE("voting: majority of 3 with k = 2") {
  auto t = tally(3, 2, {EQ, DIFF, EQ});
  auto o = t.outcome();
  CHECK(o.equivalent == true);
  CHECK(o.confidence == Approx(2.0 / 3.0));
  CHECK(o.detail == "2/3 EQUIVALENT");
  CHECK_FALSE(o.fault);
  auto d = tally(3, 2, {DIFF, ABST, DIFF}).outcome();
  CHECK(d.equivalent == false);
  CHECK(d.confidence == Approx(2.0 / 3.0));
  CHECK(d.detail == "2/3 DIFFERENT");
}

TEST_CASE("voting: unanimity k = N") {
  auto all = tally(5, 5, {EQ, EQ, EQ, EQ, EQ}).outcome();
  CHECK(all.equivalent == true);
  CHECK(all.confidence == 1.0);
  CHECK(all.detail == "5/5 EQUIVALENT");
  // A 2-1 split under votes=3, minAgreement=3 is null, never true or false.
  auto split = tally(3, 3, {EQ, EQ, DIFF}).outcome();
  CHECK(split.equivalent == std::nullopt);
  CHECK(split.confidence == 0.0);
  CHECK(split.detail == "no agreement");
  CHECK_FALSE(split.fault);
}

TEST_CASE("voting: no agreement when abstains and parse errors dominate") {
  auto t = tally(5, 3, {EQ, EQ, ABST, PERR, DIFF});
  CHECK(t.fixed());
  auto o = t.outcome();
  CHECK(o.equivalent == std::nullopt);
  CHECK(o.detail == "no agreement");
  CHECK_FALSE(o.fault);
  auto c = t.counts();
  CHECK(c == vote_counts{5, 3, 2, 1, 1, 1, 0, 0});
}

TEST_CASE("voting: single vote") {
  CHECK(tally(1, 1, {EQ}).outcome().equivalent == true);
  CHECK(tally(1, 1, {DIFF}).outcome().equivalent == false);
  auto a = tally(1, 1, {ABST}).outcome();
  CHECK(a.equivalent == std::nullopt);
  CHECK(a.detail == "no agreement");
}

TEST_CASE("voting: early-stop fixity N=5 k=3") {
  vote_tally t{vote_config{5, 3}};
  CHECK_FALSE(t.fixed());
  CHECK(t.outstanding() == 5);
  t.add(EQ);
  t.add(EQ);
  CHECK_FALSE(t.fixed());
  t.add(EQ);
  CHECK(t.fixed()); // 3 EQUIVALENT reached k
  CHECK(t.cast() == 3);
  CHECK(t.outstanding() == 2);
  auto o = t.outcome();
  CHECK(o.equivalent == true);
  CHECK(o.confidence == Approx(3.0 / 5.0));
  CHECK(o.detail == "3/5 EQUIVALENT");
  CHECK(t.counts() == vote_counts{5, 3, 3, 0, 0, 0, 0, 2});

  // 2 EQ + 2 DIFF: the last vote decides, so not fixed.
  auto u = tally(5, 3, {EQ, EQ, DIFF, DIFF});
  CHECK_FALSE(u.fixed());
  CHECK(u.counts().not_cast == 1);
  // 2 EQ + 2 DIFF + 1 ABSTAIN: all cast, nobody reached k.
  u.add(ABST);
  CHECK(u.fixed());
  CHECK(u.outcome().detail == "no agreement");

  // 1 EQ, 1 DIFF, 2 ABSTAIN: one outstanding vote cannot lift either to 3.
  auto w = tally(5, 3, {EQ, DIFF, ABST, ABST});
  CHECK(w.fixed());
  CHECK(w.counts().not_cast == 1);
  CHECK(w.outcome().equivalent == std::nullopt);
}

TEST_CASE("voting: early-stop fixity N=3 k=3") {
  // One DIFF alone: EQUIVALENT can no longer reach 3, but DIFFERENT can.
  auto t = tally(3, 3, {DIFF});
  CHECK_FALSE(t.fixed());
  // One EQ and one DIFF: neither side can reach 3 any more.
  t.add(EQ);
  CHECK(t.fixed());
  CHECK(t.outstanding() == 1);
  CHECK(t.outcome().equivalent == std::nullopt);
  CHECK(t.outcome().detail == "no agreement");
  // One ABSTAIN makes unanimity impossible at once.
  auto a = tally(3, 3, {ABST});
  CHECK(a.fixed());
  CHECK(a.counts().not_cast == 2);
}

TEST_CASE(
  "voting: faults give the fault outcome when they could have decided") {
  // N=3 k=2: 1 EQ + 2 faults. Had a faulted vote said EQUIVALENT, k was
  // reached: the null is the failure's doing (I2).
  auto t = tally(3, 2, {EQ}, 2);
  CHECK(t.fixed());
  auto o = t.outcome();
  CHECK(o.equivalent == std::nullopt);
  CHECK(o.confidence == 0.0);
  CHECK(o.fault);
  CHECK(o.detail
        == "votes failed: 2 of 3 votes faulted (1 EQUIVALENT, 0 DIFFERENT, "
           "need 2)");
  CHECK(t.counts() == vote_counts{3, 2, 1, 0, 0, 0, 2, 0});
  // Every vote failed.
  auto all = tally(3, 2, {}, 3).outcome();
  CHECK(all.fault);
  CHECK(all.detail.rfind("votes failed: 3 of 3", 0) == 0);
  // A fault of a single vote.
  CHECK(tally(1, 1, {}, 1).outcome().fault);
}

TEST_CASE("voting: faults that could not have decided leave it undecided") {
  // N=5 k=3: 1 EQ, 1 DIFF, 2 ABSTAIN, 1 fault: 1+1 < 3 either way (I3).
  auto t = tally(5, 3, {EQ, DIFF, ABST, ABST}, 1);
  auto o = t.outcome();
  CHECK(o.equivalent == std::nullopt);
  CHECK_FALSE(o.fault);
  CHECK(o.detail == "no agreement");
  // A decided outcome stays decided despite faults.
  auto d = tally(5, 3, {DIFF, DIFF, DIFF}, 2).outcome();
  CHECK(d.equivalent == false);
  CHECK(d.confidence == Approx(3.0 / 5.0));
  CHECK_FALSE(d.fault);
}

TEST_CASE("voting: counts report the configuration and outstanding votes") {
  vote_tally t{vote_config{5, 4}};
  CHECK(t.counts() == vote_counts{5, 4, 0, 0, 0, 0, 0, 5});
  t.add(PERR);
  t.add_fault();
  CHECK(t.cast() == 2);
  CHECK(t.outstanding() == 3);
  CHECK(t.counts() == vote_counts{5, 4, 0, 0, 0, 1, 1, 3});
  // 4 EQUIVALENT are still reachable with 3 outstanding? No: 0 + 3 < 4.
  CHECK(t.fixed());
}
