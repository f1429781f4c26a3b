// MPI for the census, when gdsl runs under mpirun: detecting it from the
// launcher's environment and loading libgdsl-mpi.so (driver/MpiPlugin.h,
// found as driver/Plugins.h says, or at $GDSL_MPI_PLUGIN). A process not
// started by mpirun never loads MPI.
#pragma once

#include <memory>
#include <optional>
#include <string>

struct GdslMpi;

namespace gdsl {

// One message from another rank.
struct MpiMessage {
  int from = 0;
  int tag = 0;
  std::string data;
};

class MpiLink {
 public:
  // True when the environment says mpirun (Open MPI, or a PMI launcher) started this process.
  static bool launched();
  // MPI_Init through the plugin, or null with `error` set (how to get MPI
  // when this gdsl was built without it).
  static std::unique_ptr<MpiLink> start(std::string& error);
  ~MpiLink();
  MpiLink(const MpiLink&) = delete;
  MpiLink& operator=(const MpiLink&) = delete;

  int rank() const;
  int size() const;
  bool send(int to, int tag, const std::string& data);
  // A waiting message, without blocking.
  std::optional<MpiMessage> poll();
  // Ends every rank of the run (after an error that leaves the run useless).
  [[noreturn]] void abortAll(int status);

 private:
  explicit MpiLink(const GdslMpi* mpi) : mpi_(mpi) {}
  const GdslMpi* mpi_;
};

}  // namespace gdsl
