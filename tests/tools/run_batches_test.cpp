// The progress line's batch words (tools/run_batches): the counts of every
// batched judge summed, the oldest open batch's age only while one is open.
#include <catch2/catch.hpp>

#include "tools/run_batches.hpp"

using namespace ij;

TEST_CASE("run batches: the progress words sum the judges and show the oldest "
          "open batch") {
  batch_stats a;
  a.submitted = 1;
  a.in_progress = 2;
  a.ended = 3;
  a.oldest_age_ms = 12500;
  batch_stats b;
  b.in_progress = 1;
  b.ended = 4;
  b.oldest_age_ms = 61000;
  auto sum = a;
  sum += b;
  CHECK(batch_progress_text(sum)
        == "batches 1 submitted, 3 in progress, 7 ended, oldest 61s");
  batch_stats done;
  done.ended = 2;
  CHECK(batch_progress_text(done)
        == "batches 0 submitted, 0 in progress, 2 ended");
  CHECK(run_batches{}.progress().empty());
}
