#pragma once
// `invjudge serve` started by a benchmark: on 127.0.0.1, port 0 (the port
// it prints is read back), state where the bench says; killed (SIGKILL)
// with the object unless the bench stops it first. Its peak memory
// (VmHWM).
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/tools/cli_support.hpp"

namespace ij::bench {

struct served_daemon {
  std::unique_ptr<test::invjudge_process> proc;
  std::string url;
  served_daemon(const test::temp_dir& dir, const std::string& state,
                const std::string& tag) {
    auto err = dir.file(tag + ".err");
    proc = std::make_unique<test::invjudge_process>(
      std::vector<std::string>{"serve", "--listen", "127.0.0.1:0", "--state",
                               state},
      dir.file(tag + ".out"), err);
    if (!test::wait_for_text(err, "listening on 127.0.0.1:"))
      throw std::runtime_error("the daemon did not start: "
                               + test::read_file(err));
    auto text = test::read_file(err);
    auto at = text.find("listening on 127.0.0.1:") + 23;
    url = "http://127.0.0.1:" + text.substr(at, text.find('\n', at) - at);
  }
  long peak_kib() const {
    std::ifstream in("/proc/" + std::to_string(proc->pid()) + "/status");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("VmHWM:", 0) == 0)
        return std::stol(line.substr(6));
    return 0;
  }
};

} // namespace ij::bench
