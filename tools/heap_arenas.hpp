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

/// Gives the allocator's free memory back to the system (glibc's
/// malloc_trim(0); nothing elsewhere). glibc keeps freed chunks in its
/// arenas' heaps, and returns a heap's memory by itself only from its top:
/// after 400 daemon runs of 2,000 pairs its two arenas held 36–54 MB for
/// 5.5 MB in use (malloc_stats), RSS 57–80 MB; trimmed, 35–38 MB
/// (docs/BENCHMARKS.md, bench/daemon_soak). `invjudge serve` calls it when
/// its last live run has ended.
void give_back_free_memory();

} // namespace ij
