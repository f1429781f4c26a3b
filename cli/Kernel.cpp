// gdsl kernel: the REPL's session (driver/Repl.h) spoken to in JSON Lines on
// standard input and output, for the Jupyter kernel (jupyter/gdsl_kernel.py)
// and any other program. The protocol is docs/jupyter.md, "The protocol";
// its version is kKernelProtocol. Results come as MIME bundles
// (driver/NotebookOutput.h); what the session prints besides (messages,
// diagnostics) comes as text on a stream. SIGINT stops the running
// computation and keeps the memo, as Ctrl-C does in the REPL.
#include "cli/Kernel.h"

#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "compiler/support/Interrupt.h"
#include "driver/NotebookOutput.h"
#include "driver/Repl.h"

namespace gdsl {

namespace {

volatile sig_atomic_t computing = 0;  // a request is being answered

// As the REPL's: a second SIGINT while a computation has not taken up the
// first (a JIT kernel's loop that does not poll) ends the process; the
// Jupyter kernel then starts a new one and says so.
void onInterrupt(int) {
  if (computing && interruptFlag().load() != 0) {
    const char message[] = "gdsl: stopped: the computation did not respond to the interrupt\n";
    if (::write(2, message, sizeof message - 1) < 0) {
    }
    _exit(130);
  }
  requestInterrupt();
}

// Writes one message line on standard output, at once.
void send(const nlohmann::json& message) {
  std::cout << message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  std::cout.flush();
}

}  // namespace

int runKernel(BackendKind backend, const Limits& limits) {
  std::ostringstream out, err;  // what the session prints beside the results
  nlohmann::json id;            // the request being answered
  // The text the session printed so far, sent as stream messages before
  // anything that follows it.
  auto flushStreams = [&] {
    for (auto [stream, name] : {std::pair{&out, "stdout"}, std::pair{&err, "stderr"}}) {
      std::string text = stream->str();
      if (text.empty()) continue;
      stream->str("");
      send({{"id", id}, {"kind", "stream"}, {"name", name}, {"text", text}});
    }
  };
  ReplSession session(backend, out, err, limits,
                      [&](std::ostream&, std::ostream& errors, const SourceManager& sources) {
                        return makeNotebookOutput(
                            [&](const nlohmann::json& bundle) {
                              flushStreams();
                              send({{"id", id}, {"kind", "display"}, {"data", bundle}});
                            },
                            errors, sources);
                      });

  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);

  send({{"kind", "ready"}, {"protocol", kKernelProtocol}, {"gdsl", GDSL_VERSION}});
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
    id = request.is_object() && request.contains("id") ? request["id"] : nlohmann::json();
    if (!request.is_object() || !request.contains("op") || !request["op"].is_string()) {
      send({{"id", id},
            {"kind", "error"},
            {"message", "a request is a JSON object with an \"op\""}});
      continue;
    }
    const std::string op = request["op"];
    auto text = [&](const char* key) {
      return request.contains(key) && request[key].is_string() ? request[key].get<std::string>()
                                                               : std::string();
    };
    if (op == "execute") {
      computing = 1;
      bool goOn = session.submitCell(text("code"), text("cell"));
      computing = 0;
      flushStreams();
      send({{"id", id},
            {"kind", "done"},
            {"status", session.lastStopped()  ? "interrupted"
                       : session.lastFailed() ? "error"
                                              : "ok"}});
      clearInterrupt();
      if (!goOn) break;  // :quit
    } else if (op == "complete") {
      send({{"id", id}, {"kind", "complete"}, {"matches", session.completions(text("word"))}});
    } else if (op == "inspect") {
      computing = 1;
      std::string about = session.describe(text("word"), 0.25);
      computing = 0;
      clearInterrupt();
      send({{"id", id}, {"kind", "inspect"}, {"found", !about.empty()}, {"text", about}});
    } else if (op == "is_complete") {
      send({{"id", id},
            {"kind", "is_complete"},
            {"status", ReplSession::incomplete(text("code")) ? "incomplete" : "complete"}});
    } else if (op == "shutdown") {
      send({{"id", id}, {"kind", "done"}, {"status", "ok"}});
      break;
    } else {
      send({{"id", id}, {"kind", "error"}, {"message", "unknown op '" + op + "'"}});
    }
  }
  return 0;
}

}  // namespace gdsl
