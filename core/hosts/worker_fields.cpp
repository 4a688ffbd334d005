#include "core/hosts/worker_fields.hpp"

namespace ij {

void drop_worker_fields(judge_record& rec) {
  rec.adapter_id.clear();
  rec.worker_id.clear();
  rec.host.clear();
  rec.model.clear();
  rec.temperature = 0.0;
}

void set_worker_fields(judge_record& rec, const judge_info& worker) {
  // A worker serves two prompts (issue 29): the record says which one the
  // call sent; one without (a vote no worker answered) gets the worker's
  // first.
  if (rec.prompt_id.empty())
    rec.prompt_id = worker.prompt_id;
  rec.adapter_id = worker.adapter_id;
  rec.worker_id = worker.worker_id;
  rec.host = worker.host;
  rec.model = worker.model;
  rec.temperature = worker.temperature;
}

} // namespace ij
