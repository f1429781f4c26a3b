// Misère quotients kept on disk between runs (docs/misere.md, "Quotients kept
// between runs"): each computed quotient (runtime/MisereQuotient.h) is stored
// under a key made of the game's rules (their fingerprint), the options that
// can change the result and gdsl's version, so that a later run of the same
// game (`eval misere`, `gdsl quotient`) reads it instead of computing it again.
//
// Where: $GDSL_CACHE_DIR/quotients, else $XDG_CACHE_HOME/gdsl/quotients, else
// $HOME/.cache/gdsl/quotients; GDSL_CACHE_DIR=off (or empty) turns it off, as
// for the JIT's code cache. Best effort: a file that cannot be read, written
// or trusted (its key or checksum do not match) is as if absent, never an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/Ir.h"
#include "runtime/MisereQuotient.h"

namespace gdsl {

class QuotientCache {
 public:
  // The directory the environment names (see above); empty for no cache.
  static std::string directoryFromEnvironment();
  explicit QuotientCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  // The key of game `game`'s quotient: its rules' fingerprint
  // (compiler/ir/Fingerprint.h) and the options that decide the result (the
  // periodicity theorem's bound, the largest |Q|).
  static std::string key(const ir::Program& program, size_t game, const QuotientOptions& o);
  // The quotient stored under `key`, if any.
  std::optional<QuotientResult> load(const std::string& key) const;
  // Stores `q` under `key`, replacing the file at once (a rename), so that
  // another process never reads half of it. Failures are ignored.
  void store(const std::string& key, const QuotientResult& q) const;

 private:
  std::string path(const std::string& key) const;
  std::string directory_;
};

// Whether `cached`, computed to some heap, is the quotient a computation to
// `maxHeap` would give: proved final within it, stopped within it, or
// computed to exactly that heap.
bool quotientAnswers(const QuotientResult& cached, int64_t maxHeap);

}  // namespace gdsl
