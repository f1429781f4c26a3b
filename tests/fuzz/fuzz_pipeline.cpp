// libFuzzer target fuzz_pipeline: the input bytes are a gdsl program, run
// through parse, sema, lowering and the interpreter (tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/FuzzMain.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gdsl::fuzz::runOne(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
