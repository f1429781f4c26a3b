// The JIT's code cache: one file per compiled function, a header (magic,
// length, checksum of the object) then the object itself.
#include "backend/jit/JitCache.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MD5.h>
#include <llvm/Support/xxhash.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace gdsl::jit {
namespace {

// Bump the last digit when the file layout or what the key covers changes.
constexpr char kMagic[8] = {'g', 'd', 's', 'l', 'o', 'b', 'j', '1'};
constexpr size_t kHeader = sizeof(kMagic) + 2 * sizeof(uint64_t);

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string JitCache::directoryFromEnvironment() {
  if (const char* dir = std::getenv("GDSL_CACHE_DIR"))
    return std::strcmp(dir, "off") == 0 ? "" : dir;
  if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/gdsl/jit";
  if (std::string home = environment("HOME"); !home.empty()) return home + "/.cache/gdsl/jit";
  return "";
}

std::string JitCache::key(llvm::StringRef text) {
  llvm::MD5 md5;
  md5.update(llvm::StringRef(kMagic, sizeof(kMagic)));
  md5.update(text);
  llvm::MD5::MD5Result digest;
  md5.final(digest);
  return std::string(digest.digest().str());
}

std::string JitCache::path(const std::string& key) const {
  return directory_ + "/" + key + ".o";
}

std::unique_ptr<llvm::MemoryBuffer> JitCache::load(const std::string& key) const {
  if (!enabled()) return nullptr;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return nullptr;
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < kHeader || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0)
    return nullptr;
  uint64_t length = 0, checksum = 0;
  std::memcpy(&length, file.data() + sizeof(kMagic), sizeof(length));
  std::memcpy(&checksum, file.data() + sizeof(kMagic) + sizeof(length), sizeof(checksum));
  llvm::StringRef object(file.data() + kHeader, file.size() - kHeader);
  if (object.size() != length || llvm::xxHash64(object) != checksum) return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(object, key);
}

void JitCache::store(const std::string& key, llvm::StringRef object) const {
  if (!enabled()) return;
  std::error_code error;
  // A directory gdsl creates is its user's alone: what it holds is code.
  if (std::filesystem::create_directories(directory_, error))
    std::filesystem::permissions(directory_, std::filesystem::perms::owner_all, error);
  if (error) return;
  std::string temporary = path(key) + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    uint64_t length = object.size(), checksum = llvm::xxHash64(object);
    out.write(kMagic, sizeof(kMagic));
    out.write(reinterpret_cast<const char*>(&length), sizeof(length));
    out.write(reinterpret_cast<const char*>(&checksum), sizeof(checksum));
    out.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  if (std::rename(temporary.c_str(), path(key).c_str()) != 0)
    std::filesystem::remove(temporary, error);
}

}  // namespace gdsl::jit
