// The nim table of one one-heap game kept in a file (--table-file), so that a
// table larger than memory can grow, and a run killed at any moment resumes
// from the last flush. The file is mapped MAP_SHARED and is the table's
// storage (runtime/NimTable.h): it grows with fallocate and mremap (a full
// disk is an error, never a SIGBUS) and is rewritten once, to 32-bit entries,
// when a value passes 65535 (a new file renamed over the old one).
//
// Layout (little-endian): a header of kTableFileHeaderBytes bytes, then the
// values, 2 or 4 bytes each. Header: "GDSLTAB1"; u32 format version (1); u32
// fingerprint version (ir::kFingerprintVersion); u64 the game's rule
// fingerprint (ir::gameFingerprints); u32 width (2 or 4); u32 length of the
// game's name; u64 count: the values of heaps 0..count-1 are final; u64 hash
// of those values (tableValuesHash); u64 hash of the header's other fields and
// the name; at byte 64, the name. A flush writes the values to disk (msync)
// before the header that counts them, so the header never counts a value the
// disk does not hold. Values past the count are ignored on resume.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "compiler/support/Hash.h"
#include "runtime/NimTable.h"

namespace gdsl {

inline constexpr size_t kTableFileHeaderBytes = 4096;  // values start on a page

// The hash of values 0..n-1, continued value by value from `hash` (the same
// for 16-bit and 32-bit files).
inline constexpr uint64_t kTableHashStart = 0x6a09e667f3bcc908ull;
inline uint64_t tableValuesHash(uint64_t hash, uint32_t value) {
  return hashFinish(hashMultiply(hash, value));
}

class TableFile final : public TableStorage {
 public:
  enum class Open { Missing, Opened, Failed };

  // Opens PATH and checks its header; nothing is written to it. Missing when
  // there is no such file; Failed with `error` (the path and what is wrong)
  // when it is a directory, cannot be opened for writing, is in use by
  // another run, is not a table file, is damaged or cut short, or was written
  // by a gdsl whose format or fingerprints differ.
  static Open open(const std::string& path, std::unique_ptr<TableFile>& file, std::string& error);
  // Creates PATH (written as PATH.tmp, then renamed) for the game `game`
  // whose rules have `fingerprint`, holding the values `table` has so far,
  // and makes it `table`'s storage. Throws CheckpointError when it cannot.
  static std::unique_ptr<TableFile> create(const std::string& path, uint64_t fingerprint,
                                           const std::string& game, NimTable& table);
  // True when PATH can be created: the probe file is removed again.
  static bool creatable(const std::string& path, std::string& error);
  ~TableFile() override;

  const std::string& path() const { return path_; }
  const std::string& game() const { return game_; }
  uint64_t fingerprint() const { return fingerprint_; }
  int64_t count() const { return count_; }  // values recorded final (flushed)

  // Checks the values against the header's hash and makes them `table`'s
  // (storage); false with `error` when they do not match (the file is left
  // as it was).
  bool load(NimTable& table, std::string& error);
  // Records every value of `table` (its storage) as final: the values are
  // synced to disk, then the header. Throws CheckpointError when it cannot.
  void flush(const NimTable& table);

  Room grow(size_t bytes) override;
  Room widen(const uint16_t* narrow, int64_t count, size_t bytes) override;

 private:
  TableFile() = default;
  // Throws CheckpointError: cannot write table file 'PATH': the reason.
  [[noreturn]] void fail(int error) const;
  // Maps the header and `bytes` bytes of values of `fd`.
  static char* map(int fd, size_t bytes);
  // Writes the header (count_, hash_, width) to `fd` in one write.
  bool writeHeader(int fd) const;
  Room room() const { return Room{base_ + kTableFileHeaderBytes, dataBytes_}; }

  std::string path_;
  std::string game_;
  uint64_t fingerprint_ = 0;
  int fd_ = -1;
  char* base_ = nullptr;  // the mapping: header, then values
  size_t dataBytes_ = 0;  // bytes of values mapped (and allocated in the file)
  bool wide_ = false;
  int64_t count_ = 0;                // values the header counts
  uint64_t hash_ = kTableHashStart;  // of values 0..count_-1
  bool trim_ = false;                // the file is this run's: cut its spare room on close
  int readOnly_ = 0;                 // the errno of opening it for writing, when that failed
};

}  // namespace gdsl
