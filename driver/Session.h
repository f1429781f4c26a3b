// A programmatic session: load a program, then ask for values. Used by the
// tests (and by embedders). It runs on the same stack as the CLI
// (driver/Stack.h), with the same defaults.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/Stack.h"

namespace gdsl {

struct SessionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Session {
 public:
  explicit Session(StackOptions options = {});
  ~Session();

  // Loads a program from text (declarations and statements are checked,
  // statements are not run). False on error; diagnostics() has the errors.
  bool load(const std::string& name, const std::string& source);
  // The same, its imports resolved against the directory of `path`.
  bool load(const std::string& name, const std::string& source, const std::string& path);
  bool loadFile(const std::string& path);

  // Grundy value of a position in gdsl syntax, e.g. "Kayles(5) + Kayles(3)".
  // Throws SessionError (what() is the rendered diagnostic) on any error.
  uint64_t grundy(const std::string& position);
  // The same value as eval computes it (Engine::rootValue: a board that
  // splits by the pruning search).
  uint64_t evalGrundy(const std::string& position);
  // Misère play: true when the player to move wins `position`.
  bool misereFirstPlayerWins(const std::string& position);
  // g(lo..hi) of a one-parameter game.
  std::vector<uint64_t> table(const std::string& game, int64_t lo, int64_t hi);
  // Runs statements (eval, table, ...) and returns their JSON Lines output.
  std::string runJson(const std::string& statements);

  std::string diagnostics() const;
  // How the tables computed so far were computed (what --verbose prints).
  std::string tableReport() const;
  // The stack, once a program is loaded (null before).
  Stack* stack() { return stack_.get(); }

 private:
  template <typename F>
  auto withPosition(const std::string& position, F&& f);
  bool loadText(const std::string& name, const std::string& path, const std::string& text);

  StackOptions options_;
  std::unique_ptr<Stack> stack_;
  std::string diagnostics_;
};

}  // namespace gdsl
