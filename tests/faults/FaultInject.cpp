// A fault-injection shim for the checkpoint tests, loaded with LD_PRELOAD:
// makes the n-th write, fsync, close, rename or open of a file whose path
// contains a given text (default ".tmp", the file a checkpoint is written to
// before it is renamed) fail with an errno, or wait before it goes ahead.
//
//   GDSL_FAULT=OP:N:WHAT[:PATH]
//     OP    write, fsync, close, rename or open
//     N     the N-th matching call (from 1); N+ for it and every later one
//     WHAT  an errno name (ENOSPC, EIO, EACCES, EXDEV, ENOENT), or delay=MS to
//           sleep MS milliseconds and then do the call
//     PATH  the text the file's path must contain (default .tmp)
//
// Every other call goes straight to the C library. Test code only: it is
// built beside the tests and never linked into gdsl.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

namespace {

struct Fault {
  bool parsed = false;
  std::string op, path = ".tmp";
  long n = 0;
  bool andLater = false;
  int error = 0;
  long delayMs = -1;
};

int errnoNamed(const std::string& name) {
  if (name == "ENOSPC") return ENOSPC;
  if (name == "EIO") return EIO;
  if (name == "EACCES") return EACCES;
  if (name == "EXDEV") return EXDEV;
  if (name == "ENOENT") return ENOENT;
  if (name == "EDQUOT") return EDQUOT;
  return 0;
}

const Fault& fault() {
  static Fault f = [] {
    Fault out;
    const char* spec = std::getenv("GDSL_FAULT");
    if (!spec) return out;
    std::string parts[4];
    int count = 0;
    for (const char* p = spec; *p && count < 4; ++p) {
      if (*p == ':' && count < 3)
        ++count;
      else
        parts[count] += *p;
    }
    out.op = parts[0];
    out.andLater = !parts[1].empty() && parts[1].back() == '+';
    out.n = std::atol(parts[1].c_str());
    if (parts[2].rfind("delay=", 0) == 0)
      out.delayMs = std::atol(parts[2].c_str() + 6);
    else
      out.error = errnoNamed(parts[2]);
    if (!parts[3].empty()) out.path = parts[3];
    // A spec it cannot read injects nothing (printing here would re-enter
    // write); the tests check that each fault they ask for happens.
    out.parsed = out.n > 0 && (out.error != 0 || out.delayMs >= 0);
    return out;
  }();
  return f;
}

std::atomic<long> calls{0};

// True when this call of `op` on `path` is to fail; sleeps instead for delay=.
bool strikes(const char* op, const char* path) {
  const Fault& f = fault();
  if (!f.parsed || f.op != op || !path || !std::strstr(path, f.path.c_str())) return false;
  long k = ++calls;
  if (!(k == f.n || (f.andLater && k > f.n))) return false;
  if (f.delayMs >= 0) {
    timespec t{f.delayMs / 1000, (f.delayMs % 1000) * 1000000};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
    return false;
  }
  return true;
}

std::string pathOf(int fd) {
  char link[64], target[4096];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return "";
  target[n] = '\0';
  return target;
}

template <typename Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* data, size_t size) {
  static auto real = next<ssize_t (*)(int, const void*, size_t)>("write");
  if (fault().op == "write" && strikes("write", pathOf(fd).c_str())) {
    errno = fault().error;
    return -1;
  }
  return real(fd, data, size);
}

int fsync(int fd) {
  static auto real = next<int (*)(int)>("fsync");
  if (fault().op == "fsync" && strikes("fsync", pathOf(fd).c_str())) {
    errno = fault().error;
    return -1;
  }
  return real(fd);
}

int close(int fd) {
  static auto real = next<int (*)(int)>("close");
  if (fault().op == "close" && strikes("close", pathOf(fd).c_str())) {
    real(fd);  // the descriptor is gone either way, as after a real failure
    errno = fault().error;
    return -1;
  }
  return real(fd);
}

int rename(const char* from, const char* to) {
  static auto real = next<int (*)(const char*, const char*)>("rename");
  if (strikes("rename", from)) {
    errno = fault().error;
    return -1;
  }
  return real(from, to);
}

int open(const char* path, int flags, ...) {
  static auto real = next<int (*)(const char*, int, ...)>("open");
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = static_cast<mode_t>(va_arg(args, int));
    va_end(args);
  }
  if (strikes("open", path)) {
    errno = fault().error;
    return -1;
  }
  return real(path, flags, mode);
}

}  // extern "C"
