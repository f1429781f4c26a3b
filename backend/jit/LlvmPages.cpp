// releaseLlvmCode (see LlvmPages.h): finds the executable mapping of the
// library that holds LLVM's code in /proc/self/maps and unmaps its pages from
// the process with MADV_DONTNEED. The mapping is never written (libLLVM has no
// text relocations), so the next access maps the same page from the page
// cache again. MADV_PAGEOUT would also evict the pages from the page cache,
// and the next compilation would read them back from disk: a trivial `eval`
// on the JIT took 0.25 s with it, 0.04 s with MADV_DONTNEED.
#include "backend/jit/LlvmPages.h"

#include <dlfcn.h>
#include <llvm/Support/Host.h>
#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace gdsl::jit {

void releaseLlvmCode() {
  // The file LLVM's code comes from, named by a function it defines.
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&llvm::sys::getProcessTriple), &info) || !info.dli_fname)
    return;
  std::string library = info.dli_fname;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    // start-end perms offset device inode path
    std::istringstream fields(line);
    std::string range, perms, offset, device, inode, path;
    fields >> range >> perms >> offset >> device >> inode >> path;
    if (perms != "r-xp" || path.empty() ||
        path.substr(path.rfind('/') + 1) != library.substr(library.rfind('/') + 1))
      continue;
    size_t dash = range.find('-');
    uint64_t start = std::stoull(range.substr(0, dash), nullptr, 16);
    uint64_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED);
  }
}

}  // namespace gdsl::jit
