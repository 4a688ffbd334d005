// The phases of a run session (core/session/session_phase.hpp): every
// transition, and what each message may do in each phase.
#include <catch2/catch.hpp>

#include "core/session/session_phase.hpp"

using namespace ij;
using input = session_phase::input_answer;
using cancel = session_phase::cancel_answer;

TEST_CASE("a session starts, runs, finishes and ends") {
  session_phase p;
  CHECK(p.name() == "starting");
  CHECK_FALSE(p.live());
  CHECK_FALSE(p.takes_votes());
  CHECK(p.writes_records());
  p.start();
  CHECK(p.name() == "running");
  CHECK(p.live());
  CHECK(p.takes_votes());
  p.finish();
  CHECK(p.name() == "finishing");
  CHECK(p.live());
  CHECK_FALSE(p.takes_votes());
  CHECK_FALSE(p.writes_records());
  CHECK(p.end());
  CHECK(p.name() == "ended");
  CHECK(p.ended());
  CHECK_FALSE(p.live());
  // A second end (a failure after the end) changes nothing.
  CHECK_FALSE(p.end());
}

TEST_CASE("a failure ends a session from any phase") {
  session_phase starting;
  CHECK(starting.end());
  CHECK(starting.now() == session_phase::state::ended);
  session_phase running;
  running.start();
  CHECK(running.end());
  CHECK(running.ended());
  // Nothing leaves ended.
  running.start();
  running.finish();
  CHECK(running.ended());
}

TEST_CASE("transitions out of order are ignored") {
  session_phase p;
  p.finish(); // only a running session finishes
  CHECK(p.now() == session_phase::state::starting);
  p.start();
  p.finish();
  p.start(); // no way back
  CHECK(p.now() == session_phase::state::finishing);
}

TEST_CASE(
  "input waits while starting, is admitted while running, refused after") {
  session_phase p;
  CHECK(p.on_input() == input::wait);
  p.start();
  CHECK(p.on_input() == input::admit);
  CHECK(p.close_input());
  CHECK_FALSE(p.close_input()); // closed once
  CHECK(p.on_input() == input::refused_closed);
  p.finish();
  CHECK(p.on_input() == input::refused_ended);
  p.end();
  CHECK(p.on_input() == input::refused_ended);
}

TEST_CASE(
  "input closed while starting is refused, and ends once the run starts") {
  session_phase p;
  CHECK(p.close_input());
  CHECK(p.on_input() == input::refused_closed);
  CHECK_FALSE(p.ends_input()); // item verdicts wait for the manifest
  p.start();
  CHECK(p.ends_input());
}

TEST_CASE("input closed after the run-end record was sent makes nothing due") {
  session_phase p;
  p.start();
  CHECK(p.cancel() == cancel::end_now);
  p.finish();
  CHECK(p.close_input());
  CHECK_FALSE(p.ends_input());
}

TEST_CASE("the run-end record is due only running, with the input closed and "
          "all decided") {
  session_phase p;
  CHECK_FALSE(p.may_end(true));
  p.close_input();
  CHECK_FALSE(p.may_end(true)); // still starting
  p.start();
  CHECK_FALSE(p.may_end(false));
  CHECK(p.may_end(true));
  p.finish();
  CHECK_FALSE(p.may_end(true)); // on its way already
}

TEST_CASE("a cancel while starting is deferred until the run starts") {
  session_phase p;
  CHECK(p.cancel() == cancel::defer);
  CHECK(p.cancel_deferred());
  p.start();
  CHECK(p.cancel_deferred());
  CHECK(p.cancel() == cancel::end_now);
  CHECK_FALSE(p.cancel_deferred());
  p.finish();
  CHECK(p.cancel() == cancel::ignore);
  p.end();
  CHECK(p.cancel() == cancel::ignore);
}
