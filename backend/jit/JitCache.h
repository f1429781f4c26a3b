// The JIT's cache of compiled code on disk: each function's object file,
// stored under a digest of everything its code depends on (the LLVM IR gdsl
// emitted before optimizing it, the optimization tier, LLVM's version, the
// host CPU and its features). A later run that emits the same IR links the
// stored object instead of optimizing and compiling again (docs/architecture.md,
// "The code cache").
//
// Where: $GDSL_CACHE_DIR, else $XDG_CACHE_HOME/gdsl/jit, else
// $HOME/.cache/gdsl/jit. GDSL_CACHE_DIR=off (or empty) turns it off. The
// cache is best effort: a file that cannot be read, written or trusted (its
// length or checksum do not match) is as if absent, and never an error.
// Internal to backend/jit.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <string>

namespace gdsl::jit {

class JitCache {
 public:
  // The directory the environment names (see above); empty for no cache.
  static std::string directoryFromEnvironment();
  explicit JitCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  const std::string& directory() const { return directory_; }
  // The key of `text` (the IR and the rest of what the code depends on).
  static std::string key(llvm::StringRef text);
  // The object stored under `key`, or null.
  std::unique_ptr<llvm::MemoryBuffer> load(const std::string& key) const;
  // Stores `object` under `key`, replacing the file at once (a rename), so
  // that another process never reads half of it. Failures are ignored.
  void store(const std::string& key, llvm::StringRef object) const;

 private:
  std::string path(const std::string& key) const;
  std::string directory_;
};

}  // namespace gdsl::jit
