// What both fuzz targets share: the pipeline options read once from the
// environment, the sanitizer defaults the pipeline expects, and a summary of
// the outcomes printed at exit (GDSL_FUZZ_STATS=1; 2 also prints each input's).
#pragma once

#include <string_view>

namespace gdsl::fuzz {

// Runs one input through runPipeline (FuzzPipeline.h) and counts its outcome.
void runOne(std::string_view text);

}  // namespace gdsl::fuzz
