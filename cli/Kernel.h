// gdsl kernel (the protocol of docs/jupyter.md on standard input and output)
// and gdsl jupyter install (the Jupyter kernelspec).
#pragma once

#include <string>

#include "driver/Backends.h"
#include "runtime/Limits.h"

namespace gdsl {

// The protocol's version, in the first message ("ready"): it changes when a
// request or a message changes meaning.
inline constexpr int kKernelProtocol = 1;

// Answers requests on standard input until it ends or asks to shut down.
int runKernel(BackendKind backend, const Limits& limits);

// Writes the kernelspec `gdsl` (kernel.json and the kernel's Python file)
// under DIR/share/jupyter/kernels/gdsl, DIR being `prefix`, or with `user`
// the user's data directory (~/.local/share/jupyter/kernels/gdsl). Prints
// where; false with a message on standard error when it cannot.
bool installJupyterKernel(bool user, const std::string& prefix);

}  // namespace gdsl
