#include "plan.h"

#include "eight/table_format.h"

namespace eight::server {

bool runs_long(const Plan& plan) {
  if (plan.step == Plan::Step::kBatch) return true;
  if (plan.step != Plan::Step::kEndpoint || !plan.question) return false;
  const Question& q = *plan.question;
  if (plan.route == Route::kStats) return false;  // a 4x4 goal's is a quick 404
  if (q.framed->by_search()) return true;
  if (plan.route != Route::kRandom) return false;
  return q.asks.count.has_value() ||
         q.framed->table->view().section(q.framed->frame->section()).encoding !=
             format::Encoding::kFull;
}

}  // namespace eight::server
