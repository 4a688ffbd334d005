#pragma once
// The response cache (opt-in; configuration "cache"): judge replies stored in
// SQLite by the whole identity of a call — prompt id, template SHA-256,
// adapter, model, temperature, seed, vote index and the prompt itself (A and
// B, in the order sent) — so a repeated run pays for no call twice, and N
// votes are never one answer N times. Faults are never stored.
//
// SQLite blocks, so every statement runs on the cache's own thread; lookups
// and stores are queued and answered by callback from that thread (a
// judge worker never waits for the disk). stats() and clear() wait: they are
// for `invjudge cache`, not for actors.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <caf/expected.hpp>

#include "adapters/judge_adapter.hpp"
#include "messages/error.hpp"

struct sqlite3;

namespace ij {

struct cache_stats {
  std::uint64_t entries = 0;
  /// Bytes of stored reply text.
  std::uint64_t bytes = 0;
  std::uint64_t hits = 0;   // this process
  std::uint64_t misses = 0; // this process
  std::uint64_t stores = 0; // this process
  /// SQLite errors met (a failing cache is a miss, never a wrong answer).
  std::uint64_t errors = 0;
  std::int64_t oldest_ms = 0;
  std::int64_t newest_ms = 0;
};

class response_cache {
public:
  using clock_fn = std::function<std::int64_t()>; // ms since the epoch

  /// Opens (creating) the SQLite file at `path` (WAL); fails with io_failed
  /// naming the path when it cannot be opened or is not a cache.
  static caf::expected<std::shared_ptr<response_cache>>
  open(const std::string& path, std::chrono::seconds ttl,
       std::uint64_t max_bytes, clock_fn now = {});

  ~response_cache();
  response_cache(const response_cache&) = delete;
  response_cache& operator=(const response_cache&) = delete;

  /// The key of one call (hex SHA-256 of every part, length-prefixed).
  static std::string key_of(const std::string& adapter_id,
                            const std::string& prompt,
                            const call_options& opts);

  /// Answers `done` from the cache thread: the stored reply (cached = true)
  /// or nullopt (absent, expired, or the cache failed).
  void lookup(std::string key,
              std::function<void(std::optional<adapter_reply>)> done);

  /// Stores a successful reply (a failed one is ignored).
  void store(std::string key, const adapter_reply& reply);

  /// Waits for the queue, then counts.
  cache_stats stats();
  /// Waits for the queue, then removes every entry; returns how many.
  std::uint64_t clear();

  const std::string& path() const { return path_; }

private:
  response_cache(sqlite3* db, std::string path, std::chrono::seconds ttl,
                 std::uint64_t max_bytes, clock_fn now);
  void run();
  void post(std::function<void()> task);
  template <class T>
  T wait_for(std::function<T()> task);
  void evict_if_over();

  sqlite3* db_;
  std::string path_;
  std::chrono::seconds ttl_;
  std::uint64_t max_bytes_;
  clock_fn now_;
  std::uint64_t bytes_ = 0; // stored reply bytes (cache thread only)
  cache_stats counts_;      // cache thread only

  std::mutex mtx_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

/// A judge adapter that looks every call up in the cache first and stores
/// the successful replies of the calls it makes. It never answers inline
/// (the lookup is on the cache thread).
judge_adapter_ptr with_cache(judge_adapter_ptr inner,
                             std::shared_ptr<response_cache> cache);

} // namespace ij
