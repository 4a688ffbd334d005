#include "tools/heap_arenas.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#endif

namespace ij {

int limit_heap_arenas() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  if (std::getenv("MALLOC_ARENA_MAX"))
    return 0;
  int arenas =
    std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  return ::mallopt(M_ARENA_MAX, arenas) == 1 ? arenas : 0;
#else
  return 0;
#endif
}

void give_back_free_memory() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  ::malloc_trim(0);
#endif
}

} // namespace ij
