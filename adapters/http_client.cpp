#include "adapters/http_client.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <random>
#include <unordered_map>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>

#include "adapters/adaptive_limit.hpp"
#include "adapters/call_session.hpp"
#include "adapters/connection_pool.hpp"
#include "core/voting/queue_depth.hpp"

namespace ij {

namespace net = boost::asio;
namespace ssl = net::ssl;

/// The call scheduler: calls wait in a queue for a slot of the adaptive
/// in-flight cap; each runs as a call_session. Everything but the counters
/// is touched only on the I/O thread.
struct http_client::core final : call_slots {
  core(http_client_config c, std::unique_ptr<ssl::context> tls_ctx)
      : cfg(std::move(c)), tls(std::move(tls_ctx)), work(io.get_executor()),
        limit(cfg.max_in_flight, cfg.success_run), rng(std::random_device{}()),
        pool(io, tls.get(), limit.configured()) {}

  http_client_config cfg;
  net::io_context io;
  std::unique_ptr<ssl::context> tls;
  net::executor_work_guard<net::io_context::executor_type> work;
  adaptive_limit limit;
  std::mt19937_64 rng;
  connection_pool pool;

  std::deque<call_ptr> queue;
  /// Every call not answered yet, so that shutdown can answer it.
  std::unordered_map<const call_session*, call_ptr> live;
  /// The named ones among them, for abort().
  std::unordered_map<std::uint64_t, call_session*> named;
  std::uint32_t in_flight = 0;
  bool stopping_ = false;
  /// Issue 31: the round trip (its probes') and the responses' mean time
  /// (ms), the last probe, and the requests sent ahead (read by other
  /// threads).
  latency_mean round_trip;
  latency_mean response;
  bool probing = false;
  std::chrono::steady_clock::time_point last_probe{};
  std::atomic<std::uint32_t> ahead{0};

  void responded(std::chrono::steady_clock::duration d, bool probe) override {
    (probe ? round_trip : response)
      .add(std::chrono::duration<double, std::milli>(d).count());
    size_ahead();
  }

  // The call rate is the cap over the server's own latency: a response's
  // time less the round trip.
  void size_ahead() {
    if (round_trip.ms() == 0.0 || response.ms() == 0.0)
      return;
    auto server_s = std::max(response.ms() - round_trip.ms(), 1.0) / 1000.0;
    auto rtt = std::chrono::microseconds(
      static_cast<std::int64_t>(round_trip.ms() * 1000));
    ahead = queue_depth(rtt, limit.current() / server_s, cfg.queue_max);
  }

  // With queue_max: a GET of the base path times the round trip, once
  // first and then every 30 s while calls come.
  void maybe_probe() {
    auto now = std::chrono::steady_clock::now();
    if (cfg.queue_max == 0 || probing || stopping_
        || (round_trip.ms() > 0.0
            && now - last_probe < std::chrono::seconds(30)))
      return;
    probing = true;
    last_probe = now;
    http_post probe;
    probe.target = cfg.base.path.empty() ? "/" : cfg.base.path;
    probe.timeout = std::chrono::seconds(10);
    probe.probe = true;
    submit(
      std::make_shared<call_session>(environment(), std::move(probe),
                                     [this](http_result) { probing = false; }));
  }

  call_environment environment() { return {io, cfg, pool, limit, rng, *this}; }

  void submit(const call_ptr& call) {
    if (!call->is_probe())
      maybe_probe();
    live.emplace(call.get(), call);
    if (call->id() != 0)
      named[call->id()] = call.get();
    if (stopping_)
      return call->refuse();
    call->begin();
    wait_for_slot(call, false);
  }

  void wait_for_slot(call_ptr call, bool ahead) override {
    if (ahead)
      queue.push_front(std::move(call));
    else
      queue.push_back(std::move(call));
    pump();
  }

  void withdraw(const call_session& call) override {
    queue.erase(
      std::remove_if(queue.begin(), queue.end(),
                     [&](const call_ptr& c) { return c.get() == &call; }),
      queue.end());
  }

  void attempt_ended() override { --in_flight; }

  void pump() override {
    while (!stopping_ && !queue.empty()
           && in_flight < limit.current() + ahead) {
      auto call = std::move(queue.front());
      queue.pop_front();
      ++in_flight;
      call->start_attempt();
    }
  }

  void answered(const call_session& call) override {
    live.erase(&call);
    auto n = named.find(call.id());
    if (n != named.end() && n->second == &call)
      named.erase(n);
  }

  void abort(std::uint64_t id) {
    auto n = named.find(id);
    if (n == named.end())
      return;
    auto call = live.at(n->second); // answered() would drop the last ref
    call->abort();
  }

  bool stopping() const override { return stopping_; }

  void shutdown() {
    stopping_ = true;
    std::vector<call_ptr> calls;
    for (auto& kv : live)
      calls.push_back(kv.second);
    for (auto& call : calls)
      call->shut_down();
    pool.close();
    work.reset();
  }
};

caf::expected<std::unique_ptr<http_client>>
http_client::create(http_client_config config) {
  auto tls = tls_context_if(config.base.tls, config.ca_file);
  if (!tls)
    return std::move(tls.error());
  config.max_in_flight = std::max<std::uint32_t>(config.max_in_flight, 1);
  config.max_attempts = std::max<std::uint32_t>(config.max_attempts, 1);
  auto c = std::make_shared<core>(std::move(config), std::move(*tls));
  return std::unique_ptr<http_client>(new http_client(std::move(c)));
}

http_client::http_client(std::shared_ptr<core> c) : core_(std::move(c)) {
  // The thread holds the state too, so a client destroyed from inside one
  // of its own handlers can detach and let the thread wind down safely.
  thread_ = std::thread([c = core_] { c->io.run(); });
}

http_client::~http_client() {
  net::post(core_->io, [c = core_.get()] { c->shutdown(); });
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach();
  else
    thread_.join();
}

void http_client::post(http_post request, http_handler done) {
  auto call = std::make_shared<call_session>(
    core_->environment(), std::move(request), std::move(done));
  net::post(core_->io, [c = core_.get(), call] { c->submit(call); });
}

void http_client::abort(std::uint64_t call_id) {
  if (call_id == 0)
    return;
  net::post(core_->io, [c = core_.get(), call_id] { c->abort(call_id); });
}

std::uint32_t http_client::current_concurrency() const {
  return core_->limit.current();
}

std::uint32_t http_client::calls_ahead() const {
  return core_->ahead.load();
}

std::uint64_t http_client::connections_opened() const {
  return core_->pool.opened();
}

const url& http_client::base() const {
  return core_->cfg.base;
}

} // namespace ij
