// Finding and loading the JIT plugin: at $GDSL_JIT_PLUGIN when it is set,
// else the first that exists of: beside the executable (the build tree);
// ../lib/gdsl/ from the executable (an installed gdsl); the path it was built
// at (test programs elsewhere in the build tree). Loaded once per process and never unloaded:
// native code and LLVM's own state live as long as the process.
#include "driver/JitLoader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "backend/jit/JitPlugin.h"

#ifndef GDSL_JIT_PLUGIN_BUILT
#define GDSL_JIT_PLUGIN_BUILT ""
#endif

namespace gdsl {
namespace {

constexpr const char* kPluginName = "libgdsl-jit.so";

std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("GDSL_JIT_PLUGIN"); env && *env) return {env};
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::filesystem::path dir =
        std::filesystem::path(std::string(self, static_cast<size_t>(n))).parent_path();
    out.push_back((dir / kPluginName).string());
    out.push_back((dir / ".." / "lib" / "gdsl" / kPluginName).string());
  }
  if (*GDSL_JIT_PLUGIN_BUILT) out.push_back(GDSL_JIT_PLUGIN_BUILT);
  return out;
}

struct Plugin {
  GdslJitCreate create = nullptr;
  GdslJitLlvmIr llvmIr = nullptr;
  std::string error;
};

const Plugin& plugin() {
  static Plugin p;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string& path : candidates()) {
      if (!std::filesystem::exists(path)) {
        tried += (tried.empty() ? "" : ", ") + path;
        continue;
      }
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        p.error = std::string("the JIT plugin could not be loaded: ") + dlerror();
        return;
      }
      p.create = reinterpret_cast<GdslJitCreate>(dlsym(handle, "gdsl_jit_create"));
      p.llvmIr = reinterpret_cast<GdslJitLlvmIr>(dlsym(handle, "gdsl_jit_llvm_ir"));
      if (!p.create || !p.llvmIr) p.error = path + " is not a gdsl JIT plugin";
      return;
    }
    p.error = "the JIT plugin " + std::string(kPluginName) + " was not found (looked at " + tried +
              "; set GDSL_JIT_PLUGIN to its path)";
  });
  return p;
}

}  // namespace

std::unique_ptr<Backend> loadJit(PositionBuilder& positions, std::string& error,
                                 double* setupMillis) {
  const Plugin& p = plugin();
  if (!p.create) {
    error = p.error;
    return nullptr;
  }
  double millis = 0;
  std::unique_ptr<Backend> jit(p.create(&positions, &error, &millis));
  if (setupMillis) *setupMillis = millis;
  return jit;
}

bool jitLlvmIr(const ir::Program& program, std::string& ir, std::string& error) {
  const Plugin& p = plugin();
  if (!p.llvmIr) {
    error = p.error;
    return false;
  }
  return p.llvmIr(&program, &ir, &error);
}

std::string jitPluginCandidates() {
  std::string out;
  for (const std::string& c : candidates()) out += (out.empty() ? "" : "\n") + c;
  return out;
}

}  // namespace gdsl
