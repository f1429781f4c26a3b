// Results as Jupyter display data (gdsl kernel, docs/jupyter.md): each
// statement's result becomes one MIME bundle, its text exactly as the text
// output prints it ("text/plain"), with a table also as an HTML table
// ("text/html") and `plot` as an SVG picture ("image/svg+xml").
// Diagnostics are rendered as on the command line, on `err`.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "compiler/support/Source.h"
#include "driver/Results.h"

namespace gdsl {

// Receives one result's MIME bundle: {"text/plain": ..., "text/html": ...}.
using DisplayFn = std::function<void(const nlohmann::json& bundle)>;

std::unique_ptr<Output> makeNotebookOutput(DisplayFn display, std::ostream& err,
                                           const SourceManager& sources);

// The HTML table of a table's values: at most kHtmlTableCells cells (the
// text has them all), value 0 in bold, an infinite value as ∞(K).
inline constexpr int64_t kHtmlTableCells = 2000;
std::string tableHtml(const TableResult& table);

}  // namespace gdsl
