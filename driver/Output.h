// Printing results: as text for people, or as JSON Lines for programs.
#pragma once

#include <iosfwd>
#include <memory>

#include "compiler/support/Source.h"
#include "driver/Results.h"

namespace gdsl {

// Text results go to `out`; rendered diagnostics to `err`.
std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       const SourceManager& sources);
// One JSON object per line on `out`; diagnostics also rendered on `err`.
std::unique_ptr<Output> makeJsonOutput(std::ostream& out, std::ostream& err,
                                       const SourceManager& sources);

}  // namespace gdsl
