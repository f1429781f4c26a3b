// The JIT's code cache: one file per compiled function, a header (magic,
// lengths, checksum of the rest), the source locations, then the object.
// Also the identities of the builds and of the CPU that keys include.
#include "backend/jit/JitCache.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "compiler/support/Hash.h"

namespace gdsl::jit {
namespace {

// Bump the last digit when the file layout or what the key covers changes.
constexpr char kMagic[8] = {'g', 'd', 's', 'l', 'o', 'b', 'j', '2'};
constexpr size_t kHeader = sizeof(kMagic) + 3 * sizeof(uint64_t);
constexpr size_t kLocationBytes = 5 * sizeof(uint32_t);

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string hex(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = digits[v & 15];
  return out;
}

}  // namespace

std::string JitCache::directoryFromEnvironment() {
  if (const char* dir = std::getenv("GDSL_CACHE_DIR"))
    return std::strcmp(dir, "off") == 0 ? "" : dir;
  if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/gdsl/jit";
  if (std::string home = environment("HOME"); !home.empty()) return home + "/.cache/gdsl/jit";
  return "";
}

std::string JitCache::key(const std::string& text) {
  // Two FNV-1a hashes from different starting points: 128 bits.
  uint64_t a = fnv1a(kMagic, sizeof kMagic);
  a = fnv1a(text.data(), text.size(), a);
  uint64_t b = fnv1a(text.data(), text.size(), 0x84222325cbf29ce4ull);
  b = fnv1a(kMagic, sizeof kMagic, b);
  return hex(a) + hex(b);
}

std::string JitCache::path(const std::string& key) const {
  return directory_ + "/" + key + ".o";
}

bool JitCache::load(const std::string& key, CompiledObject& out) const {
  if (!enabled()) return false;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return false;
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < kHeader || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) return false;
  uint64_t fields[3];  // object length, location count, checksum
  std::memcpy(fields, file.data() + sizeof(kMagic), sizeof fields);
  uint64_t rest = file.size() - kHeader;
  if (fields[1] > rest / kLocationBytes || fields[0] != rest - fields[1] * kLocationBytes ||
      fnv1a(file.data() + kHeader, rest) != fields[2])
    return false;
  const char* at = file.data() + kHeader;
  out.locations.resize(fields[1]);
  for (SourceRange& r : out.locations) {
    uint32_t v[5];
    std::memcpy(v, at, sizeof v);
    r = SourceRange{v[0], v[1], v[2], v[3], v[4]};
    at += kLocationBytes;
  }
  out.object.assign(at, fields[0]);
  return true;
}

void JitCache::store(const std::string& key, const CompiledObject& compiled) const {
  if (!enabled()) return;
  std::error_code error;
  // A directory gdsl creates is its user's alone: what it holds is code.
  if (std::filesystem::create_directories(directory_, error))
    std::filesystem::permissions(directory_, std::filesystem::perms::owner_all, error);
  if (error) return;
  std::string body;
  for (const SourceRange& r : compiled.locations) {
    const uint32_t v[5] = {r.file, r.begin, r.end, r.line, r.col};
    body.append(reinterpret_cast<const char*>(v), sizeof v);
  }
  body += compiled.object;
  std::string temporary = path(key) + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    const uint64_t fields[3] = {compiled.object.size(), compiled.locations.size(),
                                fnv1a(body.data(), body.size())};
    out.write(kMagic, sizeof(kMagic));
    out.write(reinterpret_cast<const char*>(fields), sizeof fields);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  if (std::rename(temporary.c_str(), path(key).c_str()) != 0)
    std::filesystem::remove(temporary, error);
}

std::string buildIdentity(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  auto readAt = [&](uint64_t offset, void* out, size_t size) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(static_cast<char*>(out), static_cast<std::streamsize>(size)));
  };
  Elf64_Ehdr header;
  if (readAt(0, &header, sizeof header) && std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
      header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_shentsize == sizeof(Elf64_Shdr)) {
    for (uint16_t i = 0; i < header.e_shnum; ++i) {
      Elf64_Shdr section;
      if (!readAt(header.e_shoff + uint64_t{i} * sizeof section, &section, sizeof section)) break;
      if (section.sh_type != SHT_NOTE || section.sh_size > 4096) continue;
      std::string notes(section.sh_size, '\0');
      if (!readAt(section.sh_offset, notes.data(), notes.size())) break;
      for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= notes.size();) {
        Elf64_Nhdr note;
        std::memcpy(&note, notes.data() + at, sizeof note);
        size_t name = at + sizeof note, desc = name + (note.n_namesz + 3) / 4 * 4;
        size_t next = desc + (note.n_descsz + 3) / 4 * 4;
        if (next > notes.size()) break;
        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
            std::memcmp(notes.data() + name, "GNU", 4) == 0) {
          std::string id = "build-id:";
          for (size_t k = 0; k < note.n_descsz; ++k)
            id += hex(static_cast<unsigned char>(notes[desc + k])).substr(14);
          return id;
        }
        at = next;
      }
    }
  }
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return "";
  return "file:" + std::to_string(info.st_size) + ":" + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec);
}

std::string hostCpuIdentity() {
  std::string out;
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (__get_cpuid(0, &a, &b, &c, &d)) out += hex(a) + hex(b) + hex(c) + hex(d);
  // Leaf 1's EBX holds the APIC ID of the core the process runs on: left out.
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    out += ":" + hex(a) + hex(c) + hex(d);
    if (c & (1u << 27)) {  // OSXSAVE: the state the OS saves (AVX, AVX-512)
      uint32_t low, high;
      __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
      out += ":" + hex((uint64_t{high} << 32) | low);
    }
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) out += ":" + hex(b) + hex(c) + hex(d);
  if (__get_cpuid(0x80000001, &a, &b, &c, &d)) out += ":" + hex(c) + hex(d);
#endif
  return out;
}

}  // namespace gdsl::jit
