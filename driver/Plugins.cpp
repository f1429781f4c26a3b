// Finding gdsl's plugins (see Plugins.h).
#include "driver/Plugins.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

namespace gdsl {

std::vector<std::string> pluginCandidates(const PluginPlace& place) {
  if (const char* env = std::getenv(place.environment); env && *env) return {env};
  std::vector<std::string> out;
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::filesystem::path dir =
        std::filesystem::path(std::string(self, static_cast<size_t>(n))).parent_path();
    out.push_back((dir / place.fileName).string());
    out.push_back((dir / ".." / "lib" / "gdsl" / place.fileName).string());
  }
  if (*place.builtAt) out.push_back(place.builtAt);
  return out;
}

std::string findPlugin(const PluginPlace& place, std::string& tried) {
  tried.clear();
  for (const std::string& candidate : pluginCandidates(place)) {
    if (std::filesystem::exists(candidate)) return candidate;
    tried += (tried.empty() ? "" : ", ") + candidate;
  }
  return "";
}

}  // namespace gdsl
