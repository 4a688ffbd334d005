#include "core/worker_fields.hpp"

#include "core/prompt.hpp"

namespace ij {

void drop_worker_fields(judge_record& rec) {
  rec.prompt_id.clear();
  rec.adapter_id.clear();
  rec.worker_id.clear();
  rec.host.clear();
  rec.model.clear();
  rec.temperature = 0.0;
}

void set_worker_fields(judge_record& rec, const judge_info& worker) {
  // Every worker of a run serves the one prompt (a host with another is
  // refused at connect), so the prompt id is the build's.
  rec.prompt_id = std::string{judge_prompt_id};
  rec.adapter_id = worker.adapter_id;
  rec.worker_id = worker.worker_id;
  rec.host = worker.host;
  rec.model = worker.model;
  rec.temperature = worker.temperature;
}

} // namespace ij
