// libgdsl-mpi.so: the MPI calls behind driver/MpiPlugin.h, over Open MPI's
// MPI_COMM_WORLD. Every message is a byte string (MPI_BYTE); the census
// gives tags their meanings (driver/CensusMpi.cpp).
#include "driver/MpiPlugin.h"

#include <mpi.h>

#include <climits>
#include <cstdio>

namespace {

GdslMpi world;

int sendBytes(int to, int tag, const char* data, size_t length) {
  if (length > INT_MAX) return 0;
  return MPI_Send(data, static_cast<int>(length), MPI_BYTE, to, tag, MPI_COMM_WORLD) == MPI_SUCCESS;
}

int waitingMessage(int* from, int* tag, size_t* length) {
  int flag = 0;
  MPI_Status status;
  if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS ||
      !flag)
    return 0;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  *from = status.MPI_SOURCE;
  *tag = status.MPI_TAG;
  *length = static_cast<size_t>(count);
  return 1;
}

int receiveBytes(int from, int tag, char* buffer, size_t length) {
  return MPI_Recv(buffer, static_cast<int>(length), MPI_BYTE, from, tag, MPI_COMM_WORLD,
                  MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

void finish() {
  MPI_Finalize();
}

void abortAll(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
}

}  // namespace

extern "C" const GdslMpi* gdsl_mpi_start(char* error, size_t capacity) {
  if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) {
    std::snprintf(error, capacity, "MPI_Init failed");
    return nullptr;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  world.send = sendBytes;
  world.waiting = waitingMessage;
  world.receive = receiveBytes;
  world.finish = finish;
  world.abort = abortAll;
  return &world;
}
