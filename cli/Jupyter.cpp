// gdsl jupyter install: the kernelspec `gdsl` (kernel.json, and the kernel's
// Python file, jupyter/gdsl_kernel.py, built into gdsl) written where
// Jupyter looks for kernels (docs/jupyter.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cli/Kernel.h"
#include "cli/KernelScript.h"  // generated: kKernelScript

namespace gdsl {

namespace {

// This executable's absolute path, for kernel.json.
std::string selfPath() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "gdsl" : p.string();
}

// The user's Jupyter data directory, as jupyter_core finds it on Linux.
std::filesystem::path userDataDir() {
  if (const char* dir = std::getenv("JUPYTER_DATA_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "jupyter";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" / "jupyter";
}

bool writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << fmt::format("gdsl: cannot write '{}'\n", path.string());
    return false;
  }
  return true;
}

}  // namespace

bool installJupyterKernel(bool user, const std::string& prefix) {
  std::filesystem::path dir = !prefix.empty() && !user
                                  ? std::filesystem::path(prefix) / "share" / "jupyter"
                                  : userDataDir();
  dir = dir / "kernels" / "gdsl";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << fmt::format("gdsl: cannot make '{}': {}\n", dir.string(), ec.message());
    return false;
  }
  dir = std::filesystem::absolute(dir);
  // Debian's python3 has python3-ipykernel; another python3 first on PATH
  // (a pyenv) may not.
  std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  nlohmann::json spec = {// (Without frozen modules, ipykernel's debugger has nothing to warn of.)
                         {"argv",
                          {python, "-Xfrozen_modules=off", (dir / "gdsl_kernel.py").string(),
                           "--gdsl", selfPath(), "-f", "{connection_file}"}},
                         {"display_name", "gdsl"},
                         {"language", "gdsl"},
                         {"interrupt_mode", "signal"},
                         {"metadata", {{"protocol", kKernelProtocol}}}};
  if (!writeFile(dir / "kernel.json", spec.dump(2) + "\n") ||
      !writeFile(dir / "gdsl_kernel.py", kKernelScript))
    return false;
  std::cout << fmt::format("installed the Jupyter kernel 'gdsl' in {}\n", dir.string());
  return true;
}

}  // namespace gdsl
