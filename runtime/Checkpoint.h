// Checkpoints of long table computations: the nim tables of a program's
// one-heap games, saved atomically (write a temporary file, flush, fsync,
// rename) so that a run killed at any moment can resume from the last one.
//
// File layout (little-endian): "GDSLCKP2", u32 fingerprint version
// (ir::kFingerprintVersion), u64 program fingerprint, u32 table count, then
// per table: u32 name length, name, u8 width (2 or 4), u64 count, count
// values; and a final u64 FNV-1a hash of everything before it.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/support/Hash.h"
#include "runtime/NimTable.h"

namespace gdsl {

// A checkpoint (or table file, runtime/TableFile.h) that could not be saved:
// an error of the machine (a full disk, a vanished directory, a failed fsync),
// never of the game, so it is not a RuntimeError and none of the engine's
// fallbacks for errors in the rules takes it. what() is the whole message:
// cannot write checkpoint 'PATH': ...
struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CheckpointEntry {
  std::string game;
  const NimTable* table = nullptr;
};

// Writes `entries` to `path` atomically: PATH.tmp is written, fsynced and
// renamed over PATH. False with `error` set (the first step that failed and
// its errno) when it cannot; PATH is then as it was and PATH.tmp is removed.
bool saveCheckpoint(const std::string& path, uint64_t fingerprint,
                    const std::vector<CheckpointEntry>& entries, std::string& error);

// True when a checkpoint can be written at `path` (its temporary file can be
// created there); false with `error` set otherwise ("cannot write KIND
// 'PATH': ..."). Nothing is left behind.
bool checkpointWritable(const std::string& path, std::string& error,
                        const char* kind = "checkpoint");

enum class CheckpointLoad { Missing, Loaded, Failed };

// What identifies a file's contents cheaply: inode, size and modification
// time (all zero when the file does not exist). A checkpoint replaced,
// truncated or removed behind gdsl's back has another stamp.
struct FileStamp {
  uint64_t inode = 0, size = 0;
  int64_t modifiedNanos = 0;
  bool operator==(const FileStamp&) const = default;
};
FileStamp fileStamp(const std::string& path);

// Reads `path`: each table's values are pushed into `tableFor(game)` (which
// may return null to skip a game). Failed (with `error`) when the file is
// damaged, was written for other rules, or by a gdsl whose fingerprints
// differ ("GDSLCKP1" files, another fingerprint version).
CheckpointLoad loadCheckpoint(const std::string& path, uint64_t fingerprint,
                              const std::function<NimTable*(const std::string&)>& tableFor,
                              std::string& error);

}  // namespace gdsl
