// The Catch2 main, compiled once in its own file (it is slow to compile).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <cstdlib>

// Every test compiles its games afresh: the JIT's code cache is off unless
// GDSL_CACHE_DIR says otherwise (tests/cli/jit_cache.py tests the cache).
static const int kCodeCacheOff = setenv("GDSL_CACHE_DIR", "off", 0);
