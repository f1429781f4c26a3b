// How the gdsl command ends: its exit statuses, and the failures it reports
// itself ("gdsl: MESSAGE" on standard error, and with --json an error object
// on standard output). Errors in a game file are reported through an Output
// (driver/Output.h) instead.
#pragma once

#include <string>

namespace gdsl::cli {

// 0 on success, 1 for errors in the game file (syntax, types, runtime errors,
// failed asserts) and failures of the machine, 2 for bad command-line usage.
constexpr int kOk = 0, kFileError = 1, kUsageError = 2;

// Whether the failures below are also JSON error objects: set from the command
// line before it is parsed (--json), so that a parse error is one too.
void reportAsJson(bool json);

// With --json, a failure that has no place in a file is also an error object
// on standard output, with null file, line and col.
void jsonError(const std::string& message);

// "gdsl: MESSAGE" on standard error (and the JSON object).
void report(const std::string& message);

// Bad command-line usage: the message, then exit status 2.
int usage(const std::string& message);

// A failure that is not the command line's fault and has no place in a file
// (a checkpoint refused, the JIT unavailable): the message, then exit status 1.
int fail(const std::string& message);

}  // namespace gdsl::cli
