// The JIT backend, and finding (driver/Plugins.h, $GDSL_JIT_PLUGIN) and
// loading its compiler plugin. The plugin is found when the backend is made (its build is part of
// the code cache's keys) but loaded only when a function must be compiled;
// once loaded, never unloaded: LLVM's own state lives as long as the process.
#include "driver/JitLoader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "backend/jit/JitBackend.h"
#include "backend/jit/JitPlugin.h"
#include "driver/Plugins.h"

#ifndef GDSL_JIT_PLUGIN_BUILT
#define GDSL_JIT_PLUGIN_BUILT ""
#endif

namespace gdsl {
namespace {

constexpr PluginPlace kPlugin{"libgdsl-jit.so", "GDSL_JIT_PLUGIN", GDSL_JIT_PLUGIN_BUILT};

// The plugin's path, or empty with `error` set.
const std::string& pluginPath(std::string& error) {
  static std::string path, notFound;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    path = findPlugin(kPlugin, tried);
    if (path.empty())
      notFound = std::string("the JIT plugin ") + kPlugin.fileName + " was not found (looked at " +
                 tried + "; set GDSL_JIT_PLUGIN to its path)";
  });
  if (path.empty()) error = notFound;
  return path;
}

// The plugin's entry point, loaded on first use (once per process).
GdslJitCompilerCreate compilerEntry(std::string& error) {
  static GdslJitCompilerCreate entry = nullptr;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string& path = pluginPath(failure);
    if (path.empty()) return;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      failure = std::string("the JIT plugin could not be loaded: ") + dlerror();
      return;
    }
    entry = reinterpret_cast<GdslJitCompilerCreate>(dlsym(handle, "gdsl_jit_compiler"));
    if (!entry) failure = path + " is not a gdsl JIT plugin";
  });
  if (!entry) error = failure;
  return entry;
}

std::unique_ptr<jit::ObjectCompiler> makeCompiler(std::string& error, double& millis) {
  GdslJitCompilerCreate entry = compilerEntry(error);
  if (!entry) return nullptr;
  return std::unique_ptr<jit::ObjectCompiler>(entry(&error, &millis));
}

std::unique_ptr<jit::JitBackend> makeJit(PositionBuilder& positions, std::string& error) {
  std::string path = pluginPath(error);
  if (path.empty()) return nullptr;
  return jit::JitBackend::create(positions, makeCompiler, jit::buildIdentity(path));
}

}  // namespace

std::unique_ptr<Backend> loadJit(PositionBuilder& positions, std::string& error,
                                 bool loadCompiler) {
  std::unique_ptr<jit::JitBackend> jit = makeJit(positions, error);
  if (jit && loadCompiler && !jit->startCompiler(error)) return nullptr;
  return jit;
}

std::unique_ptr<jit::JitBackend> makeJitBackend(PositionBuilder& positions, std::string& error) {
  return makeJit(positions, error);
}

std::unique_ptr<jit::ObjectCompiler> loadJitCompiler(std::string& error) {
  double millis = 0;
  return makeCompiler(error, millis);
}

bool jitLlvmIr(const ir::Program& program, std::string& ir, std::string& error) {
  PositionBuilder positions(program);
  std::unique_ptr<jit::JitBackend> jit = makeJit(positions, error);
  if (!jit || !jit->compileAll(error)) return false;
  ir = jit->optimizedIr();
  return true;
}

std::string jitPluginCandidates() {
  std::string out;
  for (const std::string& c : pluginCandidates(kPlugin)) out += (out.empty() ? "" : "\n") + c;
  return out;
}

}  // namespace gdsl
