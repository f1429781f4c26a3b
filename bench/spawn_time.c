/* Mean wall time of a command, from posix_spawn to waitpid, over RUNS runs:
 *   spawn_time RUNS COMMAND [ARGS...]    prints the mean in microseconds
 * Standard output goes to /dev/null. Used by bench/startup.py; no perf in the
 * loop, so a short run is measured as a user's shell would run it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spawn_time RUNS COMMAND [ARGS...]\n");
    return 2;
  }
  int runs = atoi(argv[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  long long total = 0;
  for (int r = 0; r < runs; ++r) {
    pid_t pid;
    long long start = now_ns();
    if (posix_spawnp(&pid, argv[2], &actions, NULL, argv + 2, environ) != 0) {
      perror("posix_spawn");
      return 1;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "spawn_time: %s did not exit with status 0\n", argv[2]);
      return 1;
    }
    total += now_ns() - start;
  }
  printf("%.1f\n", (double)total / runs / 1000.0);
  return 0;
}
