#pragma once
// The fields of a judge record that are constants of the worker that served
// it (its judge_info): worker id, host, adapter id, model and temperature
// (the prompt id travels: a worker has two prompts, issue 29). A worker
// sends its records without them and the coordinator,
// which holds every worker's info, puts them back on receipt: records cross
// the middleman in their thousands, the info once per worker.
#include "messages/judge_info.hpp"
#include "messages/judge_record.hpp"

namespace ij {

/// Clears the worker's constants from a record about to be sent.
void drop_worker_fields(judge_record& rec);

/// Sets them from the info of the worker that served (or was to serve) it.
void set_worker_fields(judge_record& rec, const judge_info& worker);

} // namespace ij
