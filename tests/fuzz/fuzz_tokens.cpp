// libFuzzer target fuzz_tokens: the pipeline of fuzz_pipeline, with a custom
// mutator that edits programs token by token (TokenMutator.h); one mutation
// in eight is left to libFuzzer's byte-level mutators.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/FuzzMain.h"
#include "tests/fuzz/TokenMutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gdsl::fuzz::runOne(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  if (seed % 8 != 0) {
    if (size_t n = gdsl::fuzz::mutateTokens(data, size, maxSize, seed / 8)) return n;
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t maxOutSize, unsigned int seed) {
  return gdsl::fuzz::crossOverTokens(data1, size1, data2, size2, out, maxOutSize, seed);
}
