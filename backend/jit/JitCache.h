// The JIT's cache of compiled code on disk: each function's object file and
// the source locations its error calls name, stored under a digest of
// everything its code depends on (the whole program's rules with their
// source locations, ir::codeText; the function; the first location index it
// was given; the builds of gdsl and of the compiler plugin; the host CPU). A
// later run that asks for the same function links the stored object
// (backend/jit/ObjectLoader.h) without loading LLVM (docs/architecture.md,
// "The code cache").
//
// Where: $GDSL_CACHE_DIR, else $XDG_CACHE_HOME/gdsl/jit, else
// $HOME/.cache/gdsl/jit. GDSL_CACHE_DIR=off (or empty) turns it off. The
// cache is best effort: a file that cannot be read, written or trusted (its
// lengths or checksum do not match) is as if absent, and never an error.
// Internal to backend/jit; no LLVM here.
#pragma once

#include <string>
#include <vector>

#include "compiler/support/Source.h"

namespace gdsl::jit {

// One compiled function: an ELF object and the source ranges of the location
// indices its code passes to the error helper (from its first index on).
struct CompiledObject {
  std::string object;
  std::vector<SourceRange> locations;
};

class JitCache {
 public:
  // The directory the environment names (see above); empty for no cache.
  static std::string directoryFromEnvironment();
  explicit JitCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  const std::string& directory() const { return directory_; }
  // The key of `text` (everything the code depends on): 32 hex digits.
  static std::string key(const std::string& text);
  // The function stored under `key`, if any.
  bool load(const std::string& key, CompiledObject& out) const;
  // Stores `compiled` under `key`, replacing the file at once (a rename), so
  // that another process never reads half of it. Failures are ignored.
  void store(const std::string& key, const CompiledObject& compiled) const;

 private:
  std::string path(const std::string& key) const;
  std::string directory_;
};

// The GNU build ID of the ELF file at `path` in hex (the linker's digest of
// its contents), else its size and modification time; empty when it cannot be read.
std::string buildIdentity(const std::string& path);
// The host CPU as the compiler sees it: its vendor, model and feature bits
// (CPUID) and the register state the OS saves (XCR0), in hex.
std::string hostCpuIdentity();

}  // namespace gdsl::jit
