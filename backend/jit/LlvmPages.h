// Gives back the memory that LLVM's machine code occupies once a function is
// compiled: libLLVM's text is about 100 MB, and compiling one function maps
// about 50 MB of it (the kernel reads the file ahead), which would otherwise
// stay resident for the whole run. The pages are clean copies of the file, so
// dropping them loses nothing: the next compilation reads back what it needs.
#pragma once

namespace gdsl::jit {

// Drops libLLVM's code pages from the process's resident memory (they stay
// in the page cache); does nothing when the library cannot be found.
void releaseLlvmCode();

}  // namespace gdsl::jit
