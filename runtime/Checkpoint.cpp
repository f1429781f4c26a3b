// Checkpoint files: atomic save and checked load (see Checkpoint.h).
#include "runtime/Checkpoint.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "compiler/ir/Fingerprint.h"

namespace gdsl {
namespace {

constexpr char kMagic[8] = {'G', 'D', 'S', 'L', 'C', 'K', 'P', '2'};
// Version 1 files hashed the printed IR; their fingerprints cannot be checked.
constexpr char kMagicVersion1[8] = {'G', 'D', 'S', 'L', 'C', 'K', 'P', '1'};

// Buffers the file and hashes what it writes; after the first failed write
// it writes nothing more and keeps that write's errno.
class Writer {
 public:
  explicit Writer(int fd) : fd_(fd) {}
  void bytes(const void* data, size_t size) {
    hash_ = fnv1a(data, size, hash_);
    const auto* p = static_cast<const char*>(data);
    while (size > 0 && error_ == 0) {
      size_t room = sizeof(buffer_) - used_;
      size_t n = size < room ? size : room;
      std::memcpy(buffer_ + used_, p, n);
      used_ += n;
      p += n;
      size -= n;
      if (used_ == sizeof(buffer_)) flush();
    }
  }
  template <class T>
  void value(T v) {
    bytes(&v, sizeof v);
  }
  // Writes what is buffered; the errno of the failure, or 0.
  int flush() {
    size_t done = 0;
    while (done < used_ && error_ == 0) {
      ssize_t n = ::write(fd_, buffer_ + done, used_ - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error_ = errno;
      if (n == 0) error_ = ENOSPC;  // no progress: the device is full
      if (n > 0) done += static_cast<size_t>(n);
    }
    used_ = 0;
    return error_;
  }
  uint64_t hash() const { return hash_; }

 private:
  int fd_;
  char buffer_[1 << 16];
  size_t used_ = 0;
  uint64_t hash_ = kFnvOffset;
  int error_ = 0;
};

class Reader {
 public:
  explicit Reader(std::ifstream& in) : in_(in) {}
  bool bytes(void* data, size_t size) {
    if (!in_.read(static_cast<char*>(data), static_cast<std::streamsize>(size))) return false;
    hash_ = fnv1a(data, size, hash_);
    return true;
  }
  template <class T>
  bool value(T& v) {
    return bytes(&v, sizeof v);
  }
  uint64_t hash() const { return hash_; }

 private:
  std::ifstream& in_;
  uint64_t hash_ = kFnvOffset;
};

}  // namespace

bool saveCheckpoint(const std::string& path, uint64_t fingerprint,
                    const std::vector<CheckpointEntry>& entries, std::string& error) {
  std::string temp = path + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = fmt::format("cannot write checkpoint '{}': {}", path, std::strerror(errno));
    return false;
  }
  auto w = std::make_unique<Writer>(fd);
  w->bytes(kMagic, sizeof kMagic);
  w->value<uint32_t>(ir::kFingerprintVersion);
  w->value<uint64_t>(fingerprint);
  w->value<uint32_t>(static_cast<uint32_t>(entries.size()));
  for (const CheckpointEntry& e : entries) {
    w->value<uint32_t>(static_cast<uint32_t>(e.game.size()));
    w->bytes(e.game.data(), e.game.size());
    const NimTable& t = *e.table;
    w->value<uint8_t>(t.wide() ? 4 : 2);
    w->value<uint64_t>(static_cast<uint64_t>(t.size()));
    if (t.wide())
      w->bytes(t.wideData(), static_cast<size_t>(t.size()) * 4);
    else
      w->bytes(t.narrowData(), static_cast<size_t>(t.size()) * 2);
  }
  uint64_t hash = w->hash();
  w->value<uint64_t>(hash);
  // The errno of the first step that fails: write, fsync, close or rename.
  int failure = w->flush();
  if (failure == 0 && ::fsync(fd) != 0) failure = errno;
  if (::close(fd) != 0 && failure == 0) failure = errno;
  if (failure == 0 && std::rename(temp.c_str(), path.c_str()) != 0) failure = errno;
  if (failure != 0) {
    error = fmt::format("cannot write checkpoint '{}': {}", path, std::strerror(failure));
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

FileStamp fileStamp(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return {};
  return FileStamp{static_cast<uint64_t>(st.st_ino), static_cast<uint64_t>(st.st_size),
                   static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

bool checkpointWritable(const std::string& path, std::string& error, const char* kind) {
  // The file is written as path.tmp, then renamed: both need the directory.
  std::string temp = path + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  bool created = fd >= 0;
  if (!created && errno == EEXIST) fd = ::open(temp.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    error = fmt::format("cannot write {} '{}': {}", kind, path, std::strerror(errno));
    return false;
  }
  ::close(fd);
  if (created) std::remove(temp.c_str());
  return true;
}

CheckpointLoad loadCheckpoint(const std::string& path, uint64_t fingerprint,
                              const std::function<NimTable*(const std::string&)>& tableFor,
                              std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {  // it would open, and read as damaged
    error = fmt::format("checkpoint '{}' is a directory; give the path of a file", path);
    return CheckpointLoad::Failed;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return CheckpointLoad::Missing;
  Reader r(in);
  auto damaged = [&] {
    error = fmt::format("checkpoint '{}' is damaged (delete it to start over)", path);
    return CheckpointLoad::Failed;
  };
  auto older = [&] {
    error = fmt::format(
        "checkpoint '{}' was written by an older gdsl, whose fingerprints of the game rules "
        "this one cannot check; delete it to start over",
        path);
    return CheckpointLoad::Failed;
  };
  char magic[8];
  uint32_t version = 0;
  uint64_t fileFingerprint = 0;
  uint32_t count = 0;
  if (!r.bytes(magic, sizeof magic)) return damaged();
  if (std::memcmp(magic, kMagicVersion1, sizeof magic) == 0) return older();
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) return damaged();
  if (!r.value(version)) return damaged();
  if (version != ir::kFingerprintVersion) return older();
  if (!r.value(fileFingerprint) || !r.value(count)) return damaged();
  if (fileFingerprint != fingerprint) {
    error = fmt::format(
        "checkpoint '{}' was written for different game rules; delete it or choose "
        "another --checkpoint path",
        path);
    return CheckpointLoad::Failed;
  }
  // Read everything first: tables are filled only from a file that checks out.
  // Values stay in their stored width (2 bytes a heap for most tables).
  struct Stored {
    std::string name;
    std::vector<uint16_t> narrow;
    std::vector<uint32_t> wide;
  };
  std::vector<Stored> tables;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t nameSize = 0;
    uint8_t width = 0;
    uint64_t heaps = 0;
    if (!r.value(nameSize) || nameSize > 4096) return damaged();
    Stored t;
    t.name.assign(nameSize, '\0');
    if (!r.bytes(t.name.data(), nameSize) || !r.value(width) || !r.value(heaps)) return damaged();
    if ((width != 2 && width != 4) || heaps > (uint64_t{1} << 40)) return damaged();
    bool read = false;
    if (width == 2) {
      t.narrow.resize(static_cast<size_t>(heaps));
      read = r.bytes(t.narrow.data(), t.narrow.size() * 2);
    } else {
      t.wide.resize(static_cast<size_t>(heaps));
      read = r.bytes(t.wide.data(), t.wide.size() * 4);
    }
    if (!read) return damaged();
    tables.push_back(std::move(t));
  }
  uint64_t expected = r.hash(), stored = 0;
  if (!in.read(reinterpret_cast<char*>(&stored), sizeof stored) || stored != expected)
    return damaged();
  for (const Stored& t : tables)
    if (NimTable* table = tableFor(t.name)) {
      table->truncate(0);
      for (uint16_t v : t.narrow) table->push(v);
      for (uint32_t v : t.wide) table->push(v);
    }
  return CheckpointLoad::Loaded;
}

}  // namespace gdsl
