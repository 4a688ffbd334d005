// The process's malloc arena limit (tools/heap_arenas): one per core, at
// least 2, unless the user set $MALLOC_ARENA_MAX.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include <catch2/catch.hpp>

#include "tools/heap_arenas.hpp"

TEST_CASE("heap arenas: one per core (at least 2), the user's MALLOC_ARENA_MAX "
          "stands") {
  ::setenv("MALLOC_ARENA_MAX", "3", 1);
  CHECK(ij::limit_heap_arenas() == 0);
  ::unsetenv("MALLOC_ARENA_MAX");
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  CHECK(ij::limit_heap_arenas()
        == std::max(2, static_cast<int>(std::thread::hardware_concurrency())));
#else
  CHECK(ij::limit_heap_arenas() == 0);
#endif
}
