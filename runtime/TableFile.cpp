// Table files: a one-heap game's nim table mapped from a file, checked on
// open, grown, widened and flushed (see TableFile.h).
#include "runtime/TableFile.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Hash.h"
#include "runtime/Checkpoint.h"

namespace gdsl {
namespace {

static_assert(std::endian::native == std::endian::little, "table files are little-endian");

constexpr char kMagic[8] = {'G', 'D', 'S', 'L', 'T', 'A', 'B', '1'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kNameOffset = 64;
constexpr size_t kMaxName = kTableFileHeaderBytes - kNameOffset;
constexpr uint64_t kMaxCount = uint64_t{1} << 40;
// The file grows by its size, at least 1 MiB and at most 256 MiB at a time:
// room is allocated on disk (fallocate), so it is never much more than used.
constexpr size_t kMinGrowth = size_t{1} << 20;
constexpr size_t kMaxGrowth = size_t{256} << 20;

// The fields of a header, at their offsets.
struct Fields {
  uint32_t version = 0, fingerprintVersion = 0;
  uint64_t fingerprint = 0;
  uint32_t width = 0, nameSize = 0;
  uint64_t count = 0, valuesHash = 0, headerHash = 0;
};

template <class T>
T get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void put(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// The hash of the header's fields before it and of the name.
uint64_t headerHash(const char* header, uint32_t nameSize) {
  return fnv1a(header + kNameOffset, nameSize, fnv1a(header, 48));
}

size_t roundToPage(size_t bytes) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

}  // namespace

TableFile::~TableFile() {
  if (base_) munmap(base_, kTableFileHeaderBytes + dataBytes_);
  if (fd_ < 0) return;
  // The spare room past the last flushed value is given back to the disk.
  if (trim_ &&
      ::ftruncate(fd_, static_cast<off_t>(kTableFileHeaderBytes +
                                          static_cast<size_t>(count_) * (wide_ ? 4 : 2))) != 0) {
  }
  ::close(fd_);
}

void TableFile::fail(int error) const {
  throw CheckpointError(
      fmt::format("cannot write table file '{}': {}", path_, std::strerror(error)));
}

char* TableFile::map(int fd, size_t bytes) {
  void* p = mmap(nullptr, kTableFileHeaderBytes + bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

bool TableFile::writeHeader(int fd) const {
  // One write of the header (never stores into the mapping one field at a
  // time): a kill cannot leave half of it.
  char header[kTableFileHeaderBytes] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  put<uint32_t>(header + 8, kFormatVersion);
  put<uint32_t>(header + 12, ir::kFingerprintVersion);
  put<uint64_t>(header + 16, fingerprint_);
  put<uint32_t>(header + 24, wide_ ? 4 : 2);
  put<uint32_t>(header + 28, static_cast<uint32_t>(game_.size()));
  put<uint64_t>(header + 32, static_cast<uint64_t>(count_));
  put<uint64_t>(header + 40, hash_);
  std::memcpy(header + kNameOffset, game_.data(), game_.size());
  put<uint64_t>(header + 48, headerHash(header, static_cast<uint32_t>(game_.size())));
  return ::pwrite(fd, header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
}

TableFile::Open TableFile::open(const std::string& path, std::unique_ptr<TableFile>& file,
                                std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = fmt::format("table file '{}' is a directory; give the path of a file", path);
    return Open::Failed;
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return Open::Missing;
  // A file that cannot be written is still checked: what is wrong with it
  // comes first, and load() then refuses to write it.
  int readOnly = 0;
  if (fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM)) {
    readOnly = errno;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    error = fmt::format("cannot write table file '{}': {}", path, std::strerror(errno));
    return Open::Failed;
  }
  std::unique_ptr<TableFile> f(new TableFile);
  f->path_ = path;
  f->fd_ = fd;
  f->readOnly_ = readOnly;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    error = fmt::format("table file '{}' is in use by another gdsl run", path);
    return Open::Failed;
  }
  auto damaged = [&](const std::string& what) {
    error = fmt::format("table file '{}' is damaged: {}; delete it to start over", path, what);
    return Open::Failed;
  };
  struct stat st;
  char header[kTableFileHeaderBytes];
  ssize_t got = ::fstat(fd, &st) == 0 ? ::pread(fd, header, sizeof header, 0) : -1;
  if (got < static_cast<ssize_t>(sizeof kMagic) ||
      std::memcmp(header, kMagic, sizeof kMagic) != 0) {
    error = fmt::format(
        "table file '{}' is not a gdsl table file (it does not start with GDSLTAB1); give "
        "another --table-file path",
        path);
    return Open::Failed;
  }
  if (got < static_cast<ssize_t>(sizeof header))
    return damaged(fmt::format("it is shorter than its header ({} bytes)", got));
  Fields h;
  h.version = get<uint32_t>(header + 8);
  h.fingerprintVersion = get<uint32_t>(header + 12);
  if (h.version != kFormatVersion || h.fingerprintVersion != ir::kFingerprintVersion) {
    error = fmt::format(
        "table file '{}' was written by another version of gdsl (table format {}, fingerprint "
        "version {}; this gdsl writes {} and {}); delete it to start over",
        path, h.version, h.fingerprintVersion, kFormatVersion, ir::kFingerprintVersion);
    return Open::Failed;
  }
  h.fingerprint = get<uint64_t>(header + 16);
  h.width = get<uint32_t>(header + 24);
  h.nameSize = get<uint32_t>(header + 28);
  h.count = get<uint64_t>(header + 32);
  h.valuesHash = get<uint64_t>(header + 40);
  h.headerHash = get<uint64_t>(header + 48);
  if (h.nameSize > kMaxName || h.headerHash != headerHash(header, h.nameSize))
    return damaged("its header does not match its checksum");
  if ((h.width != 2 && h.width != 4) || h.count > kMaxCount)
    return damaged("its header holds impossible values");
  uint64_t held = (static_cast<uint64_t>(st.st_size) - kTableFileHeaderBytes) / h.width;
  if (held < h.count)
    return damaged(
        fmt::format("it is cut short: its header counts {} values, it holds {}", h.count, held));
  f->game_.assign(header + kNameOffset, h.nameSize);
  f->fingerprint_ = h.fingerprint;
  f->wide_ = h.width == 4;
  f->count_ = static_cast<int64_t>(h.count);
  f->hash_ = h.valuesHash;
  f->dataBytes_ = static_cast<size_t>(st.st_size) - kTableFileHeaderBytes;
  file = std::move(f);
  return Open::Opened;
}

bool TableFile::load(NimTable& table, std::string& error) {
  if (readOnly_) {
    error = fmt::format("cannot write table file '{}': {}", path_, std::strerror(readOnly_));
    return false;
  }
  base_ = map(fd_, dataBytes_);
  if (!base_) {
    error = fmt::format("cannot write table file '{}': {}", path_, std::strerror(errno));
    return false;
  }
  madvise(base_, kTableFileHeaderBytes + dataBytes_, MADV_SEQUENTIAL);
  uint64_t hash = kTableHashStart;
  TableView values{base_ + kTableFileHeaderBytes, wide_};
  for (int64_t i = 0; i < count_; ++i) hash = tableValuesHash(hash, values[i]);
  madvise(base_, kTableFileHeaderBytes + dataBytes_, MADV_NORMAL);
  if (hash != hash_) {
    munmap(base_, kTableFileHeaderBytes + dataBytes_);
    base_ = nullptr;
    error = fmt::format(
        "table file '{}' is damaged: its values do not match the checksum in its header; delete "
        "it to start over",
        path_);
    return false;
  }
  trim_ = true;
  table.useStorage(this, room(), count_, wide_);
  return true;
}

bool TableFile::creatable(const std::string& path, std::string& error) {
  // The file is written as PATH.tmp, then renamed: both need the directory.
  return checkpointWritable(path, error, "table file");
}

std::unique_ptr<TableFile> TableFile::create(const std::string& path, uint64_t fingerprint,
                                             const std::string& game, NimTable& table) {
  std::unique_ptr<TableFile> f(new TableFile);
  f->path_ = path;
  f->game_ = game.substr(0, kMaxName);
  f->fingerprint_ = fingerprint;
  f->wide_ = table.wide();
  size_t width = f->wide_ ? 4 : 2;
  size_t used = static_cast<size_t>(table.size()) * width;
  std::string temp = path + ".tmp";
  int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) f->fail(errno);
  f->fd_ = fd;
  auto failed = [&](int error) {
    std::remove(temp.c_str());
    f->fail(error);
  };
  size_t bytes = roundToPage(std::max(kMinGrowth, used + used / 4));
  if (int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(kTableFileHeaderBytes + bytes)))
    failed(rc);
  if (!(f->base_ = map(fd, bytes))) failed(errno);
  f->dataBytes_ = bytes;
  if (used) std::memcpy(f->base_ + kTableFileHeaderBytes, table.view().data, used);
  // The values first, then the header that counts them, then the name.
  for (int64_t i = 0; i < table.size(); ++i) f->hash_ = tableValuesHash(f->hash_, table[i]);
  f->count_ = table.size();
  if (msync(f->base_, kTableFileHeaderBytes + bytes, MS_SYNC) != 0) failed(errno);
  errno = 0;
  if (!f->writeHeader(fd) || ::fsync(fd) != 0) failed(errno ? errno : EIO);
  ::flock(fd, LOCK_EX | LOCK_NB);
  if (std::rename(temp.c_str(), path.c_str()) != 0) failed(errno);
  f->trim_ = true;
  table.useStorage(f.get(), f->room(), table.size(), f->wide_);
  return f;
}

void TableFile::flush(const NimTable& table) {
  int64_t n = table.size();
  if (n <= count_) return;
  size_t width = wide_ ? 4 : 2;
  // The values not yet counted go to disk before the header counts them.
  size_t from = kTableFileHeaderBytes + static_cast<size_t>(count_) * width;
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  from -= from % page;
  size_t to = kTableFileHeaderBytes + static_cast<size_t>(n) * width;
  if (msync(base_ + from, to - from, MS_SYNC) != 0) fail(errno);
  uint64_t hash = hash_;
  for (int64_t i = count_; i < n; ++i) hash = tableValuesHash(hash, table[i]);
  int64_t before = count_;
  uint64_t hashBefore = hash_;
  count_ = n;
  hash_ = hash;
  errno = 0;
  if (!writeHeader(fd_) || ::fdatasync(fd_) != 0) {
    int error = errno ? errno : EIO;
    count_ = before;
    hash_ = hashBefore;
    fail(error);
  }
}

TableStorage::Room TableFile::grow(size_t bytes) {
  size_t want =
      roundToPage(std::max(bytes, dataBytes_ + std::clamp(dataBytes_, kMinGrowth, kMaxGrowth)));
  if (int rc = ::posix_fallocate(fd_, static_cast<off_t>(kTableFileHeaderBytes + dataBytes_),
                                 static_cast<off_t>(want - dataBytes_)))
    fail(rc);
  void* p = mremap(base_, kTableFileHeaderBytes + dataBytes_, kTableFileHeaderBytes + want,
                   MREMAP_MAYMOVE);
  if (p == MAP_FAILED) fail(errno);
  base_ = static_cast<char*>(p);
  dataBytes_ = want;
  return room();
}

TableStorage::Room TableFile::widen(const uint16_t* narrow, int64_t count, size_t bytes) {
  // A new file of 32-bit entries, renamed over the old one once it is whole:
  // a kill at any moment leaves one or the other.
  std::string temp = path_ + ".tmp";
  int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(errno);
  size_t want = roundToPage(std::max(bytes, static_cast<size_t>(count) * 4));
  char* wider = nullptr;
  auto failed = [&](int error) {
    if (wider) munmap(wider, kTableFileHeaderBytes + want);
    ::close(fd);
    std::remove(temp.c_str());
    wide_ = false;
    fail(error);
  };
  if (int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(kTableFileHeaderBytes + want)))
    failed(rc);
  if (!(wider = map(fd, want))) failed(errno);
  auto* values = reinterpret_cast<uint32_t*>(wider + kTableFileHeaderBytes);
  for (int64_t i = 0; i < count; ++i) values[i] = narrow[i];
  // The header counts the same values with the same hash: only their width changed.
  wide_ = true;
  if (msync(wider, kTableFileHeaderBytes + static_cast<size_t>(count) * 4, MS_SYNC) != 0)
    failed(errno);
  errno = 0;
  if (!writeHeader(fd) || ::fsync(fd) != 0) failed(errno ? errno : EIO);
  ::flock(fd, LOCK_EX | LOCK_NB);
  if (std::rename(temp.c_str(), path_.c_str()) != 0) failed(errno);
  munmap(base_, kTableFileHeaderBytes + dataBytes_);
  ::close(fd_);
  fd_ = fd;
  base_ = wider;
  dataBytes_ = want;
  return room();
}

}  // namespace gdsl
