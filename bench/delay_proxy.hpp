#pragma once
// A TCP proxy that adds a fixed delay each way (issue 31): a judge host, or
// an HTTP judge's server, reached across a round trip of 2 x `one_way` on
// 127.0.0.1. It listens on 127.0.0.1 (port 0: the OS picks), connects each
// accepted connection to the target, and forwards every chunk it reads
// `one_way` later, in order, on its own Asio thread. A side that closes is
// closed on the other side once what it sent has been delivered. It can
// also sever every connection, or hold them silent (a partition).
//
// For the benchmarks (bench/hosts_bench, bench/http_bench) and the hosts
// tests: the latency axis without root, network namespaces or tc.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace ij::bench {

class delay_proxy {
public:
  delay_proxy(std::string target_host, std::uint16_t target_port,
              std::chrono::milliseconds one_way);
  ~delay_proxy();
  delay_proxy(const delay_proxy&) = delete;
  delay_proxy& operator=(const delay_proxy&) = delete;

  std::uint16_t port() const;
  /// "127.0.0.1:PORT".
  std::string address() const;
  /// Connections accepted so far.
  std::uint64_t connections() const;

  /// Closes every connection now (each side sees it closed: a host killed,
  /// as far as the other side can tell); new ones are accepted.
  void sever();
  /// A silent partition while `on`: nothing is forwarded and nothing is
  /// closed (no RST); what was sent meanwhile arrives, in order, once off.
  void hold(bool on);

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace ij::bench
