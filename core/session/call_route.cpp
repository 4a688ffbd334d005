#include "core/session/call_route.hpp"

namespace ij {

call_route route_of(const call_facts& f) {
  if (f.cached)
    return call_route::cached;
  if (f.refused_by_breaker)
    return call_route::refused_breaker;
  // Budget refusals are recorded as the judge's (with its worker), before
  // any call: the fault kind tells them.
  if (f.fault == fault_kind::budget)
    return call_route::refused_budget;
  if (!f.has_worker)
    return call_route::unplaced;
  return call_route::sent;
}

void call_routes::add(call_route r) {
  switch (r) {
    case call_route::sent: ++sent; break;
    case call_route::refused_breaker: ++refused_breaker; break;
    case call_route::refused_budget: ++refused_budget; break;
    case call_route::cached: ++cached; break;
    case call_route::unplaced: ++unplaced; break;
  }
}

} // namespace ij
