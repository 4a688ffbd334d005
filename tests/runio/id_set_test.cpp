// The compact id set: exact membership, whatever the ids look like.
#include <string>
#include <unordered_set>

#include <catch2/catch.hpp>

#include "runio/id_set.hpp"

using ij::id_set;

TEST_CASE("the id set finds every duplicate and nothing else") {
  id_set s;
  std::unordered_set<std::string> reference;
  // Enough ids to grow the table many times and fill more than one block.
  for (long long i = 0; i < 300000; ++i) {
    auto id =
      "id-" + std::to_string((i * 7919) % 200000) + std::string(i % 5, 'x');
    CHECK(s.insert(id) == reference.insert(id).second);
  }
  CHECK(s.size() == reference.size());
}

TEST_CASE("ids differing only in length, bytes or NULs are distinct") {
  id_set s;
  CHECK(s.insert(""));
  CHECK_FALSE(s.insert(""));
  CHECK(s.insert(std::string("a\0b", 3)));
  CHECK(s.insert(std::string("a\0c", 3)));
  CHECK(s.insert("a"));
  CHECK_FALSE(s.insert(std::string("a\0b", 3)));
  CHECK(s.insert("\xE6\x97\xA5\xE6\x9C\xAC"));
  CHECK_FALSE(s.insert("\xE6\x97\xA5\xE6\x9C\xAC"));
}

TEST_CASE("an id longer than a block is kept whole") {
  id_set s;
  std::string huge((5u << 20), 'h');
  CHECK(s.insert(huge));
  CHECK(s.insert("small"));
  CHECK_FALSE(s.insert(huge));
  huge.back() = 'i';
  CHECK(s.insert(huge));
}
