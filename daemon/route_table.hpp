#pragma once
// The daemon's routing: method + path pattern -> handler, one table instead
// of a chain of comparisons. A pattern is a path of segments; a segment
// "{name}" matches any one non-empty segment and is captured under `name`
// ("/v1/runs/{id}/pairs"). A path some route matches with another method is
// a 405 (with the methods it takes), a path no route matches a 404. HEAD
// takes a GET route.
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>

namespace ij {

/// The segments a pattern captured, by name.
class route_params {
public:
  void set(std::string name, std::string value) {
    values_.emplace_back(std::move(name), std::move(value));
  }
  /// "" when the pattern has no such segment.
  const std::string& get(std::string_view name) const {
    static const std::string none;
    for (auto& [k, v] : values_)
      if (k == name)
        return v;
    return none;
  }

private:
  std::vector<std::pair<std::string, std::string>> values_;
};

/// "/a/b/" -> {"a", "b", ""}: a path's segments after its leading slash.
inline std::vector<std::string_view> path_segments(std::string_view path) {
  std::vector<std::string_view> out;
  if (path.empty() || path.front() != '/')
    return out;
  path.remove_prefix(1);
  for (;;) {
    auto slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos)
      return out;
    path.remove_prefix(slash + 1);
  }
}

template <class Handler>
class route_table {
public:
  struct route {
    boost::beast::http::verb method;
    std::string pattern;
    Handler handler;
  };

  struct match {
    const route* found = nullptr; // the route for this method and path
    std::vector<boost::beast::http::verb> allowed; // the path's methods
    route_params params;
  };

  void add(boost::beast::http::verb method, std::string pattern,
           Handler handler) {
    routes_.push_back(route{method, std::move(pattern), std::move(handler)});
  }

  match find(boost::beast::http::verb method, std::string_view path) const {
    match out;
    auto segments = path_segments(path);
    for (auto& r : routes_) {
      route_params params;
      if (!matches(r.pattern, segments, params))
        continue;
      out.allowed.push_back(r.method);
      // HEAD is answered as GET without the body (RFC 9110 9.3.2; the
      // server drops the body, keeping its Content-Length).
      bool fits = r.method == method
                  || (method == boost::beast::http::verb::head
                      && r.method == boost::beast::http::verb::get);
      if (fits && !out.found) {
        out.found = &r;
        out.params = std::move(params);
      }
    }
    return out;
  }

  const std::vector<route>& routes() const { return routes_; }

private:
  static bool matches(const std::string& pattern,
                      const std::vector<std::string_view>& segments,
                      route_params& params) {
    auto want = path_segments(pattern);
    if (want.size() != segments.size())
      return false;
    for (std::size_t i = 0; i < want.size(); ++i) {
      auto w = want[i];
      if (w.size() > 2 && w.front() == '{' && w.back() == '}') {
        if (segments[i].empty())
          return false;
        params.set(std::string{w.substr(1, w.size() - 2)},
                   std::string{segments[i]});
      } else if (w != segments[i]) {
        return false;
      }
    }
    return true;
  }

  std::vector<route> routes_;
};

} // namespace ij
