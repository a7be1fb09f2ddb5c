// Content negotiation: which representation a client asked for.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

namespace eight::server {

// Whether an Accept header prefers HTML to JSON: what a browser sends for a
// page. Without text/html (curl's */*, or application/json) the answer is JSON.
bool prefers_html(std::string_view accept);

}  // namespace eight::server
