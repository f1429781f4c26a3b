// MPI for the census (see Mpi.h).
#include "driver/Mpi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include "driver/MpiPlugin.h"
#include "driver/Plugins.h"

#ifndef GDSL_MPI_PLUGIN_BUILT
#define GDSL_MPI_PLUGIN_BUILT ""
#endif

namespace gdsl {
namespace {

constexpr PluginPlace kPlugin{"libgdsl-mpi.so", "GDSL_MPI_PLUGIN", GDSL_MPI_PLUGIN_BUILT};

}  // namespace

bool MpiLink::launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (const char* value = std::getenv(name); value && *value) return true;
  return false;
}

std::unique_ptr<MpiLink> MpiLink::start(std::string& error) {
  std::string tried;
  std::string path = findPlugin(kPlugin, tried);
  if (path.empty()) {
    error = std::string(
                "this gdsl was built without MPI: its plugin libgdsl-mpi.so was not "
                "found (looked at ") +
            tried +
            "); install Open MPI (apt-get install openmpi-bin libopenmpi-dev, as "
            "scripts/setup.sh does) and build gdsl again";
    return nullptr;
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    error = std::string("the MPI plugin could not be loaded: ") + dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<GdslMpiStart>(dlsym(handle, "gdsl_mpi_start"));
  if (!entry) {
    error = path + " is not a gdsl MPI plugin";
    return nullptr;
  }
  char failure[512] = "";
  const GdslMpi* mpi = entry(failure, sizeof failure);
  if (!mpi) {
    error = failure;
    return nullptr;
  }
  return std::unique_ptr<MpiLink>(new MpiLink(mpi));
}

MpiLink::~MpiLink() {
  mpi_->finish();
}

int MpiLink::rank() const {
  return mpi_->rank;
}

int MpiLink::size() const {
  return mpi_->size;
}

bool MpiLink::send(int to, int tag, const std::string& data) {
  return mpi_->send(to, tag, data.data(), data.size()) != 0;
}

std::optional<MpiMessage> MpiLink::poll() {
  MpiMessage m;
  size_t length = 0;
  if (!mpi_->waiting(&m.from, &m.tag, &length)) return std::nullopt;
  std::vector<char> buffer(length + 1);
  if (!mpi_->receive(m.from, m.tag, buffer.data(), length)) return std::nullopt;
  m.data.assign(buffer.data(), length);
  return m;
}

void MpiLink::abortAll(int status) {
  mpi_->abort(status);
  std::_Exit(status);
}

}  // namespace gdsl
