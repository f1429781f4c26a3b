// The interface of libgdsl-mpi.so (driver/MpiPlugin.cpp), the plugin that
// holds gdsl's only use of MPI: the census's messages between ranks
// (driver/CensusMpi.cpp). A plain C interface, so that the executable never
// links Open MPI and a build without it still works (driver/Mpi.h loads the
// plugin only when gdsl runs under mpirun).
#pragma once

#include <cstddef>

extern "C" {

struct GdslMpi {
  int rank;  // this process's rank in MPI_COMM_WORLD
  int size;  // the number of ranks
  // Sends `length` bytes to rank `to` with `tag`; 0 on failure.
  int (*send)(int to, int tag, const char* data, size_t length);
  // 1 with `from`, `tag` and `length` set when a message is waiting, else 0.
  int (*waiting)(int* from, int* tag, size_t* length);
  // Receives the message `waiting` reported into `buffer` (`length` bytes); 0 on failure.
  int (*receive)(int from, int tag, char* buffer, size_t length);
  // MPI_Finalize.
  void (*finish)();
  // MPI_Abort: ends every rank of the run with `status`.
  void (*abort)(int status);
};

// The plugin's entry point, "gdsl_mpi_start": MPI_Init, then the interface,
// or null with `error` (a buffer of `capacity` bytes) set.
typedef const GdslMpi* (*GdslMpiStart)(char* error, size_t capacity);
}
