#include "core/config/config_fields.hpp"

namespace ij::config {

namespace {

// "/a/b" as {"a", "b"} (the pointers of tables hold no escapes).
std::vector<std::string> segments(std::string_view pointer) {
  std::vector<std::string> out;
  while (!pointer.empty()) {
    pointer.remove_prefix(1);
    auto end = pointer.find('/');
    out.emplace_back(pointer.substr(0, end));
    pointer =
      end == std::string_view::npos ? std::string_view{} : pointer.substr(end);
  }
  return out;
}

} // namespace

const rapidjson::Value* find(const rapidjson::Value& obj,
                             std::string_view pointer) {
  const rapidjson::Value* at = &obj;
  for (auto& s : segments(pointer)) {
    if (!at->IsObject())
      return nullptr;
    auto it = at->FindMember(rapidjson::StringRef(
      s.data(), static_cast<rapidjson::SizeType>(s.size())));
    if (it == at->MemberEnd())
      return nullptr;
    at = &it->value;
  }
  return at;
}

void object_writer::key(std::string_view pointer) {
  auto path = segments(pointer);
  auto last = path.back();
  path.pop_back();
  std::size_t common = 0;
  while (common < open_.size() && common < path.size()
         && open_[common] == path[common])
    ++common;
  for (auto n = open_.size(); n > common; --n)
    w_.EndObject();
  open_.resize(common);
  for (auto i = common; i < path.size(); ++i) {
    w_.Key(path[i].data(), static_cast<rapidjson::SizeType>(path[i].size()));
    w_.StartObject();
    open_.push_back(path[i]);
  }
  w_.Key(last.data(), static_cast<rapidjson::SizeType>(last.size()));
}

void object_writer::finish() {
  for (auto n = open_.size(); n > 0; --n)
    w_.EndObject();
  open_.clear();
  w_.EndObject();
}

} // namespace ij::config
