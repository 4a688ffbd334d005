#pragma once
// How many malloc arenas the process uses. glibc gives threads up to 8 arenas
// per core; a batch's tens of MB allocated and freed on one thread, and the
// calls waiting in it on others, are then spread over arenas that each keep
// their own free memory: `invjudge serve` peaked at 214 MB at 100,000 pairs
// in batches of 10,000, 158 MB with one arena per core (bench/batch_bench,
// docs/BENCHMARKS.md). More arenas than cores buys little: no more threads
// allocate at once than there are cores to run them.
namespace ij {

/// Sets the arena limit to the cores (at least 2) before any thread starts;
/// returns it, or 0 when $MALLOC_ARENA_MAX is set (the user's choice stands),
/// the C library is not glibc or AddressSanitizer's allocator replaces it.
int limit_heap_arenas();

} // namespace ij
