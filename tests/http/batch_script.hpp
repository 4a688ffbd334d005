#pragma once
// The scripted decisions of the batch end-to-end tests (driver and daemon),
// in two forms that decide alike: a batch fake answering by custom_id and a
// synchronous fake answering by prompt. Pair i's answers carry "K<i>K", so
// the synchronous fake can tell the pair from its prompt; a batch fake tells
// it from the custom_id "<tag>-p<seq>-v<vote>" (seq = line = i + 1).
//
// Pairs 4k split on their first wave (EQUIVALENT, then DIFFERENT) and a third
// vote decides DIFFERENT; 4k+1 are DIFFERENT; the rest EQUIVALENT. With three
// votes that exercises early stopping: a third vote only for the split pairs.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "tests/http/fake_apis.hpp"
#include "tests/http/fake_batches.hpp"

namespace ij::test {

/// `count` pairs as JSON lines, ids p0..p<count-1>.
std::string scripted_pairs(int count);

/// Vote `vote` (0-based) of pair `pair` (0-based): the decision's word.
std::string scripted_decision(int pair, int vote);

/// A judge's reply text deciding `decision`.
std::string scripted_reply(const std::string& decision);

/// Makes `fake` answer each request by its custom_id.
void decide_by_custom_id(fake_batches& fake);

/// A synchronous fake deciding the same: the nth call for a pair is its vote
/// n (a split pair's first two votes tally the same in either order).
struct scripted_sync_judge {
  explicit scripted_sync_judge(api_kind kind, std::string api_key);

  std::mutex mtx;
  std::map<int, int> calls;
  std::unique_ptr<fake_api> api;
};

} // namespace ij::test
