// The quotient cache (see QuotientCache.h). A file is text: a first line
// naming the format, the key's text on the second, then the quotient's
// numbers, and a last line with the FNV-1a checksum of everything before it.
#include "runtime/QuotientCache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Hash.h"

namespace gdsl {
namespace {

// 2: a quotient that stopped at a heap no longer lists that heap among its
// expansions; files of format 1 are ignored (computed again).
constexpr const char* kFormat = "gdsl quotient cache 2";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

template <typename T>
void writeList(std::ostringstream& out, const std::vector<T>& v) {
  out << v.size();
  for (const T& x : v) out << ' ' << static_cast<int64_t>(x);
  out << '\n';
}

template <typename T>
bool readList(std::istringstream& in, std::vector<T>& v, size_t limit) {
  size_t n = 0;
  if (!(in >> n) || n > limit) return false;
  v.resize(n);
  for (T& x : v) {
    int64_t y = 0;
    if (!(in >> y)) return false;
    x = static_cast<T>(y);
  }
  return true;
}

int64_t optionalOut(const std::optional<int64_t>& v) {
  return v ? *v : -1;
}

std::optional<int64_t> optionalIn(int64_t v) {
  if (v < 0) return std::nullopt;
  return v;
}

}  // namespace

std::string QuotientCache::directoryFromEnvironment() {
  if (const char* dir = std::getenv("GDSL_CACHE_DIR"))
    return std::strcmp(dir, "off") == 0 || !*dir ? "" : std::string(dir) + "/quotients";
  if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/gdsl/quotients";
  if (std::string home = environment("HOME"); !home.empty()) return home + "/.cache/gdsl/quotients";
  return "";
}

std::string QuotientCache::key(const ir::Program& program, size_t game, const QuotientOptions& o) {
  return fmt::format("rules {:016x} take {} parts {} start {} even {} order {} gdsl {}",
                     ir::gameFingerprints(program)[game], o.take ? *o.take : -1, o.parts,
                     o.minStart, o.evenPeriod ? 1 : 0, o.maxOrder, GDSL_VERSION);
}

std::string QuotientCache::path(const std::string& key) const {
  return fmt::format("{}/{:016x}.quotient", directory_, fnv1a(key.data(), key.size()));
}

std::optional<QuotientResult> QuotientCache::load(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream file(path(key), std::ios::binary);
  if (!file) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  // The checksum line: the last one.
  size_t last = text.rfind('\n', text.size() >= 2 ? text.size() - 2 : 0);
  if (last == std::string::npos) return std::nullopt;
  std::string body = text.substr(0, last + 1);
  if (text.substr(last + 1) != fmt::format("{:016x}\n", fnv1a(body.data(), body.size())))
    return std::nullopt;
  std::istringstream in(body);
  std::string format, storedKey;
  if (!std::getline(in, format) || format != kFormat || !std::getline(in, storedKey) ||
      storedKey != key)
    return std::nullopt;
  QuotientResult q;
  BipartiteMonoid& m = q.quotient;
  size_t generators = 0;
  constexpr size_t kLimit = size_t{1} << 26;
  if (!(in >> m.size >> generators) || m.size == 0 || generators > 64) return std::nullopt;
  m.act.resize(generators);
  for (auto& column : m.act)
    if (!readList(in, column, m.size) || column.size() != m.size) return std::nullopt;
  if (!readList(in, m.inP, m.size) || !readList(in, m.parent, m.size) ||
      !readList(in, m.parentGen, m.size) || m.inP.size() != m.size || m.parent.size() != m.size ||
      m.parentGen.size() != m.size)
    return std::nullopt;
  for (const auto& column : m.act)
    for (uint32_t x : column)
      if (x >= m.size) return std::nullopt;
  for (uint32_t x : m.parent)
    if (x >= m.size) return std::nullopt;
  if (!readList(in, q.phi, kLimit) || !readList(in, q.expansions, kLimit)) return std::nullopt;
  for (uint32_t x : q.phi)
    if (x >= m.size) return std::nullopt;
  int64_t finalHeap = -1, period = -1, preperiod = -1;
  size_t stoppedLength = 0;
  if (!(in >> q.lastHeap >> finalHeap >> period >> preperiod >> stoppedLength) || q.lastHeap < 0 ||
      static_cast<size_t>(q.lastHeap) + 1 != q.phi.size() || stoppedLength > 4096)
    return std::nullopt;
  q.finalHeap = optionalIn(finalHeap);
  q.period = optionalIn(period);
  q.preperiod = optionalIn(preperiod);
  if ((q.finalHeap && (!q.period || *q.period < 1)) || in.get() != '\n') return std::nullopt;
  q.stopped.resize(stoppedLength);
  if (!in.read(q.stopped.data(), static_cast<std::streamsize>(stoppedLength))) return std::nullopt;
  return q;
}

void QuotientCache::store(const std::string& key, const QuotientResult& q) const {
  if (!enabled()) return;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return;
  const BipartiteMonoid& m = q.quotient;
  std::ostringstream out;
  out << kFormat << '\n' << key << '\n' << m.size << ' ' << m.act.size() << '\n';
  for (const auto& column : m.act) writeList(out, column);
  writeList(out, m.inP);
  writeList(out, m.parent);
  writeList(out, m.parentGen);
  writeList(out, q.phi);
  writeList(out, q.expansions);
  out << q.lastHeap << ' ' << optionalOut(q.finalHeap) << ' ' << optionalOut(q.period) << ' '
      << optionalOut(q.preperiod) << ' ' << q.stopped.size() << '\n'
      << q.stopped << '\n';
  std::string body = out.str();
  std::string target = path(key);
  std::string temporary = target + ".tmp" + std::to_string(getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) return;
    file << body << fmt::format("{:016x}\n", fnv1a(body.data(), body.size()));
    if (!file.flush()) {
      file.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  if (std::rename(temporary.c_str(), target.c_str()) != 0)
    std::filesystem::remove(temporary, error);
}

bool quotientAnswers(const QuotientResult& cached, int64_t maxHeap) {
  if (cached.finalHeap) return *cached.finalHeap <= maxHeap;
  if (!cached.stopped.empty()) return cached.lastHeap < maxHeap;
  return cached.lastHeap == maxHeap;
}

}  // namespace gdsl
