#include "tools/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace ij {

namespace {

// Lock-free atomics are async-signal-safe; nothing else happens in the handler.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int) {
  interrupted.store(true, std::memory_order_relaxed);
}

} // namespace

void install_interrupt_handler() {
  struct sigaction sa = {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  struct sigaction ign = {};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, &ign, nullptr);
}

bool interrupt_requested() {
  return interrupted.load(std::memory_order_relaxed);
}

void request_interrupt() {
  interrupted.store(true, std::memory_order_relaxed);
}

} // namespace ij
