#include "cli_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ij::test {

temp_dir::temp_dir() {
  char tmpl[] = "/tmp/invjudge-test-XXXXXX";
  if (!::mkdtemp(tmpl))
    throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

temp_dir::~temp_dir() {
  std::string cmd = "rm -rf " + shell_quote(path_);
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "could not remove %s\n", path_.c_str());
}

std::string temp_dir::file(const std::string& name) const {
  return path_ + "/" + name;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string invjudge_path() {
  return IJ_INVJUDGE;
}

std::string source_dir() {
  return IJ_SOURCE_DIR;
}

cli_result invjudge(const temp_dir& dir, const std::string& args,
                    const std::string& stdin_path) {
  std::string out = dir.file(".stdout"), err = dir.file(".stderr");
  std::string cmd = "cd " + shell_quote(dir.path()) + " && "
                    + shell_quote(invjudge_path()) + " " + args + " >"
                    + shell_quote(out) + " 2>" + shell_quote(err)
                    + " <" + shell_quote(stdin_path);
  int status = std::system(cmd.c_str());
  cli_result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

std::vector<std::string> files_starting_with(const temp_dir& dir,
                                             const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.path().c_str())) {
    while (auto e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name.rfind(prefix, 0) == 0)
        out.push_back(name);
    }
    ::closedir(d);
  }
  return out;
}

} // namespace ij::test
