#include "tools/cache_command.hpp"

#include <cstdio>

#include <sys/stat.h>

#include "adapters/response_cache.hpp"
#include "core/audit/audit_record.hpp"
#include "tools/exit_codes.hpp"

namespace ij {

int cache_command(const std::string& action, const std::string& path) {
  // stats and clear read an existing cache; they never create one.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::fprintf(stderr, "invjudge: %s: no such response cache file\n",
                 path.c_str());
    return exit_code::bad_input;
  }
  auto opened = response_cache::open(path, std::chrono::seconds{0}, 0);
  if (!opened) {
    std::fprintf(stderr, "invjudge: %s\n", context_of(opened.error()).c_str());
    return exit_code::bad_input;
  }
  auto& cache = *opened;
  if (action == "clear") {
    auto n = cache->clear();
    std::printf("cleared %llu entr%s from %s\n",
                static_cast<unsigned long long>(n), n == 1 ? "y" : "ies",
                path.c_str());
    return exit_code::ok;
  }
  auto s = cache->stats();
  std::printf("%s: %llu entries, %llu bytes of replies", path.c_str(),
              static_cast<unsigned long long>(s.entries),
              static_cast<unsigned long long>(s.bytes));
  if (s.entries > 0)
    std::printf(", oldest %s, newest %s", iso8601_utc(s.oldest_ms).c_str(),
                iso8601_utc(s.newest_ms).c_str());
  std::printf("\n");
  return exit_code::ok;
}

} // namespace ij
