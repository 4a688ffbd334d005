// A run's input window (core/voting/input_window.hpp): room, sequence numbers,
// open pairs and input positions.
#include <catch2/catch.hpp>

#include "core/voting/input_window.hpp"

using namespace ij;

TEST_CASE("the window has room until as many pairs are taken in and unreleased "
          "as its size") {
  input_window w{2};
  CHECK(w.has_room());
  w.admit(w.take_seq(), "p1");
  w.admit(w.take_seq(), "p2");
  CHECK_FALSE(w.has_room());
  CHECK(w.admitted() == 2);
  // Deciding a pair frees no place: its verdict is not released yet.
  w.decide(1);
  CHECK_FALSE(w.has_room());
  w.release(1);
  CHECK(w.has_room());
  CHECK(w.released() == 1);
}

TEST_CASE(
  "a window not given fits the judges' capacity, within 256 and 8,192") {
  input_window small;
  small.fit_to_capacity(4);
  CHECK(small.size() == 256);
  input_window mid;
  mid.fit_to_capacity(100);
  CHECK(mid.size() == 400);
  input_window big;
  big.fit_to_capacity(1'000'000);
  CHECK(big.size() == 8192);
  input_window given{10};
  given.fit_to_capacity(100);
  CHECK(given.size() == 10);
}

TEST_CASE(
  "a window not given holds a batched judge's calls at once, up to 2^20") {
  input_window batched;
  batched.fit_to_capacity(20'000, 20'000);
  CHECK(batched.size() == 20'000);
  input_window small_batches;
  small_batches.fit_to_capacity(100, 200);
  CHECK(small_batches.size() == 400);
  input_window anthropic_max; // two batches of 100,000
  anthropic_max.fit_to_capacity(200'000, 200'000);
  CHECK(anthropic_max.size() == 200'000);
  input_window huge;
  huge.fit_to_capacity(4'000'000, 4'000'000);
  CHECK(huge.size() == 1u << 20);
}

TEST_CASE("a canary takes a sequence number, never a place, positions count "
          "real pairs") {
  input_window w{8};
  CHECK(w.take_position() == 0);
  CHECK(w.next_seq() == 1);
  CHECK(w.take_seq() == 1); // a canary
  auto seq = w.take_seq();
  CHECK(seq == 2);
  w.admit(seq, "p1");
  CHECK(w.take_position() == 1);
  CHECK(w.admitted() == 1);
  CHECK(w.is_open(2));
  CHECK_FALSE(w.is_open(1));
}

TEST_CASE("pairs not decided are listed unfinished, sorted by id") {
  input_window w{8};
  w.admit(w.take_seq(), "zeta");
  w.admit(w.take_seq(), "alpha");
  w.admit(w.take_seq(), "mid");
  CHECK_FALSE(w.all_decided());
  w.decide(3);
  CHECK(w.unfinished() == std::vector<std::string>{"alpha", "zeta"});
  w.decide(1);
  w.decide(2);
  CHECK(w.all_decided());
  CHECK(w.unfinished().empty());
}
