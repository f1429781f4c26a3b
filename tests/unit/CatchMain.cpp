// The Catch2 main, compiled once in its own file (it is slow to compile).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
