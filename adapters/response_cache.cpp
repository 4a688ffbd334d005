#include "adapters/response_cache.hpp"

#include <algorithm>
#include <cstdio>
#include <future>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "adapters/sqlite_statement.hpp"
#include "core/prompts/prompt.hpp"
#include "core/sha256.hpp"
#include "core/wall_clock.hpp"

namespace ij {

namespace {

using statement = sqlite_statement;

constexpr const char* schema_sql =
  "PRAGMA journal_mode=WAL;"
  "PRAGMA synchronous=NORMAL;"
  "CREATE TABLE IF NOT EXISTS invjudge_cache ("
  " key TEXT PRIMARY KEY,"
  " text TEXT NOT NULL,"
  " input_tokens INTEGER NOT NULL,"
  " output_tokens INTEGER NOT NULL,"
  " created_ms INTEGER NOT NULL,"
  " bytes INTEGER NOT NULL);"
  "CREATE INDEX IF NOT EXISTS invjudge_cache_age ON "
  "invjudge_cache(created_ms);";

void append_part(std::string& out, const std::string& part) {
  out += std::to_string(part.size());
  out += ':';
  out += part;
}

} // namespace

caf::expected<std::shared_ptr<response_cache>>
response_cache::open(const std::string& path, std::chrono::seconds ttl,
                     std::uint64_t max_bytes, clock_fn now) {
  auto db = open_sqlite(path, schema_sql, false, "the response cache");
  if (!db)
    return std::move(db.error());
  if (!now)
    now = [] { return wall_clock_ms(); };
  return std::shared_ptr<response_cache>(
    new response_cache(*db, path, ttl, max_bytes, std::move(now)));
}

response_cache::response_cache(sqlite3* db, std::string path,
                               std::chrono::seconds ttl,
                               std::uint64_t max_bytes, clock_fn now)
    : db_(db), path_(std::move(path)), ttl_(ttl), max_bytes_(max_bytes),
      now_(std::move(now)) {
  statement sum{db_, "SELECT COALESCE(SUM(bytes),0) FROM invjudge_cache"};
  if (sum && sum.step() == SQLITE_ROW)
    bytes_ = static_cast<std::uint64_t>(sum.integer(0));
  thread_ = std::thread([this] { run(); });
}

response_cache::~response_cache() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    stopping_ = true;
  }
  cv_.notify_one();
  thread_.join();
  sqlite3_close(db_);
}

std::string response_cache::key_of(const std::string& adapter_id,
                                   const std::string& prompt,
                                   const call_options& opts) {
  std::string material = "invjudge-cache-v1|";
  // The call's prompt (issue 29); a call that names none sends the
  // canonical one, whose keys stay as they were.
  append_part(material, opts.prompt_id.empty() ? std::string{judge_prompt_id}
                                               : opts.prompt_id);
  append_part(material, opts.prompt_sha256.empty()
                          ? judge_prompt_template_sha256()
                          : opts.prompt_sha256);
  append_part(material, adapter_id);
  append_part(material, opts.model);
  char temp[40];
  std::snprintf(temp, sizeof temp, "%.17g", opts.temperature);
  append_part(material, temp);
  append_part(material,
              opts.seed ? std::to_string(*opts.seed) : std::string{"none"});
  append_part(material, std::to_string(opts.vote_index));
  // Only when set, so that the keys of unconstrained calls stay as they were.
  if (opts.constrain != reply_constraint::none)
    append_part(material,
                "constrain=" + std::string{to_string(opts.constrain)});
  append_part(material, prompt); // A and B, in the order sent
  return sha256_hex(material);
}

void response_cache::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock{mtx_};
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty())
        return; // stopping, and everything queued is done
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void response_cache::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

template <class T>
T response_cache::wait_for(std::function<T()> task) {
  std::promise<T> done;
  auto result = done.get_future();
  post([&] { done.set_value(task()); });
  return result.get();
}

void response_cache::lookup(
  std::string key, std::function<void(std::optional<adapter_reply>)> done) {
  post([this, key = std::move(key), done = std::move(done)] {
    statement q{db_, "SELECT text, input_tokens, output_tokens, created_ms "
                     "FROM invjudge_cache WHERE key = ?1"};
    std::optional<adapter_reply> hit;
    int rc = SQLITE_ERROR;
    if (q) {
      q.bind(1, key);
      rc = q.step();
    }
    if (rc == SQLITE_ROW) {
      auto age_ms = now_() - q.integer(3);
      if (ttl_.count() == 0 || age_ms <= ttl_.count() * 1000) {
        adapter_reply r;
        r.ok = true;
        r.text = q.text(0);
        r.input_tokens = static_cast<std::uint64_t>(q.integer(1));
        r.output_tokens = static_cast<std::uint64_t>(q.integer(2));
        r.attempts = 0; // no call was made
        r.cached = true;
        hit = std::move(r);
      }
    } else if (rc != SQLITE_DONE) {
      ++counts_.errors;
    }
    ++(hit ? counts_.hits : counts_.misses);
    done(std::move(hit));
  });
}

void response_cache::store(std::string key, const adapter_reply& reply) {
  if (!reply.ok || reply.cached)
    return; // faults are never cached; a reused reply is stored already
  post([this, key = std::move(key), text = reply.text, in = reply.input_tokens,
        out = reply.output_tokens] {
    statement q{db_, "INSERT OR REPLACE INTO invjudge_cache "
                     "(key, text, input_tokens, output_tokens, created_ms, "
                     "bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"};
    if (!q) {
      ++counts_.errors;
      return;
    }
    q.bind(1, key);
    q.bind(2, text);
    q.bind(3, static_cast<std::int64_t>(in));
    q.bind(4, static_cast<std::int64_t>(out));
    q.bind(5, now_());
    q.bind(6, static_cast<std::int64_t>(text.size()));
    if (q.step() != SQLITE_DONE) {
      ++counts_.errors;
      return;
    }
    ++counts_.stores;
    bytes_ += text.size();
    evict_if_over();
  });
}

// The oldest entries go, one by one, until the stored bytes fit.
void response_cache::evict_if_over() {
  while (max_bytes_ > 0 && bytes_ > max_bytes_) {
    std::vector<std::pair<std::string, std::uint64_t>> oldest;
    {
      statement q{db_, "SELECT key, bytes FROM invjudge_cache "
                       "ORDER BY created_ms LIMIT 64"};
      while (q && q.step() == SQLITE_ROW)
        oldest.emplace_back(q.text(0),
                            static_cast<std::uint64_t>(q.integer(1)));
    }
    if (oldest.empty()) {
      bytes_ = 0;
      return;
    }
    for (auto& [key, size] : oldest) {
      if (bytes_ <= max_bytes_)
        return;
      statement del{db_, "DELETE FROM invjudge_cache WHERE key = ?1"};
      if (!del) {
        ++counts_.errors;
        return;
      }
      del.bind(1, key);
      if (del.step() != SQLITE_DONE) {
        ++counts_.errors;
        return;
      }
      bytes_ -= std::min(bytes_, size);
    }
  }
}

cache_stats response_cache::stats() {
  return wait_for<cache_stats>([this] {
    auto s = counts_;
    statement q{db_, "SELECT COUNT(*), COALESCE(SUM(bytes),0), "
                     "COALESCE(MIN(created_ms),0), COALESCE(MAX(created_ms),0) "
                     "FROM invjudge_cache"};
    if (q && q.step() == SQLITE_ROW) {
      s.entries = static_cast<std::uint64_t>(q.integer(0));
      s.bytes = static_cast<std::uint64_t>(q.integer(1));
      s.oldest_ms = q.integer(2);
      s.newest_ms = q.integer(3);
    }
    return s;
  });
}

std::uint64_t response_cache::clear() {
  return wait_for<std::uint64_t>([this] {
    statement q{db_, "DELETE FROM invjudge_cache"};
    if (!q || q.step() != SQLITE_DONE) {
      ++counts_.errors;
      return std::uint64_t{0};
    }
    bytes_ = 0;
    return static_cast<std::uint64_t>(sqlite3_changes(db_));
  });
}

namespace {

class cached_adapter : public judge_adapter {
public:
  cached_adapter(judge_adapter_ptr inner, std::shared_ptr<response_cache> cache)
      : inner_(std::move(inner)), cache_(std::move(cache)),
        looking_(std::make_shared<lookups>()) {}

  std::string id() const override { return inner_->id(); }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    // The cache keeps text and counts only: a reply whose log-probabilities
    // were asked for is always fetched (issue 16).
    if (opts.logprobs)
      return inner_->call(prompt, opts, std::move(done));
    auto key = response_cache::key_of(inner_->id(), prompt, opts);
    looking_->begin(opts.call_id);
    // Weak: a task on the cache thread must never hold the last reference
    // (the cache's destructor joins that thread).
    std::weak_ptr<judge_adapter> inner = inner_;
    std::weak_ptr<response_cache> cache = cache_;
    cache_->lookup(
      key, [inner, cache, key, prompt, opts, looking = looking_,
            done = std::move(done)](std::optional<adapter_reply> hit) mutable {
        bool aborted = looking->end(opts.call_id);
        if (hit) {
          done(std::move(*hit));
          return;
        }
        if (aborted) {
          adapter_reply cut;
          cut.fault = fault_kind::aborted;
          cut.attempts = 0;
          cut.error = "aborted: its run was cancelled (nothing had been sent)";
          done(std::move(cut));
          return;
        }
        auto backend = inner.lock();
        if (!backend) {
          adapter_reply gone;
          gone.error = "the judge adapter was shut down";
          gone.fault = fault_kind::unavailable;
          done(std::move(gone));
          return;
        }
        backend->call(prompt, opts,
                      [cache, key, done = std::move(done)](adapter_reply r) {
                        if (auto c = cache.lock())
                          c->store(key, r);
                        done(std::move(r));
                      });
      });
  }

  // A call still being looked up is answered aborted when the lookup
  // misses (a hit costs nothing and answers); one at the backend is the
  // backend's to abort.
  void abort(std::uint64_t call_id) override {
    if (!looking_->abort(call_id))
      inner_->abort(call_id);
  }

  bool supports_seed() const override { return inner_->supports_seed(); }

  std::uint32_t current_concurrency() const override {
    return inner_->current_concurrency();
  }

  std::uint32_t calls_ahead() const override { return inner_->calls_ahead(); }

private:
  /// Named calls whose lookup is on the cache's thread, and those of them
  /// aborted meanwhile.
  struct lookups {
    std::mutex mutex;
    std::unordered_map<std::uint64_t, bool> pending;

    void begin(std::uint64_t id) {
      if (id == 0)
        return;
      std::lock_guard<std::mutex> lock(mutex);
      pending[id] = false;
    }
    /// The lookup is back: whether the call was aborted meanwhile.
    bool end(std::uint64_t id) {
      if (id == 0)
        return false;
      std::lock_guard<std::mutex> lock(mutex);
      auto i = pending.find(id);
      if (i == pending.end())
        return false;
      bool aborted = i->second;
      pending.erase(i);
      return aborted;
    }
    /// False when the call is not being looked up.
    bool abort(std::uint64_t id) {
      std::lock_guard<std::mutex> lock(mutex);
      auto i = pending.find(id);
      if (i == pending.end())
        return false;
      i->second = true;
      return true;
    }
  };

  judge_adapter_ptr inner_;
  std::shared_ptr<response_cache> cache_;
  std::shared_ptr<lookups> looking_;
};

} // namespace

judge_adapter_ptr with_cache(judge_adapter_ptr inner,
                             std::shared_ptr<response_cache> cache) {
  if (!inner || !cache)
    return inner;
  return std::make_shared<cached_adapter>(std::move(inner), std::move(cache));
}

} // namespace ij
