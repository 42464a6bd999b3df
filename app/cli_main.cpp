// fdlab-cli: the headless front end. Thin: it parses arguments, calls core, prints.
// Exit codes: 0 ok, 2 usage, 3 bad input, 4 cancelled.

#include "cli_args.h"
#include "cli_commands.h"

#include "core/util/errors.h"
#include "core/util/install_paths.h"

#include <exception>
#include <iostream>
#include <stdexcept>

namespace {

std::vector<fdlab::cli::Command> allCommands() {
    auto cmds = fdlab::cli::dataCommands();
    for (auto& c : fdlab::cli::experimentCommands()) cmds.push_back(std::move(c));
    for (auto& c : fdlab::cli::sweepCommands()) cmds.push_back(std::move(c));
    for (auto& c : fdlab::cli::reportCommands()) cmds.push_back(std::move(c));
    return cmds;
}

void printUsage(std::ostream& os, const std::vector<fdlab::cli::Command>& cmds) {
    os << "usage: fdlab-cli COMMAND [options]   (fdlab-cli COMMAND --help for details)\n\n"
          "FDLab " FDLAB_VERSION " -- the Feature Deletion Lab, headless.\n\ncommands:\n";
    for (const auto& c : cmds) {
        os << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ') << c.summary << '\n';
    }
    os << "\nexit codes: 0 ok, 2 usage error, 3 bad input, 4 cancelled\n";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace fdlab::cli;
    const auto cmds = allCommands();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        printUsage(std::cerr, cmds);
        return Usage;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(std::cout, cmds);
        return Ok;
    }
    if (args[0] == "--version") {
        std::cout << "fdlab-cli " << fdlab::versionString() << "\n";
        return Ok;
    }
    const Command* cmd = nullptr;
    for (const auto& c : cmds)
        if (c.name == args[0]) cmd = &c;
    if (!cmd) {
        std::cerr << "fdlab-cli: unknown command '" << args[0] << "'\n";
        printUsage(std::cerr, cmds);
        return Usage;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const auto& a : rest)
        if (a == "--help" || a == "-h") {
            std::cout << cmd->help;
            return Ok;
        }
    try {
        return cmd->run(rest);
    } catch (const UsageError& e) {
        std::cerr << "fdlab-cli " << cmd->name << ": " << e.what() << "\n(see fdlab-cli " << cmd->name
                  << " --help)\n";
        return Usage;
    } catch (const fdlab::DataError& e) {
        std::cerr << "fdlab-cli: " << e.what() << '\n';
        return BadInput;
    } catch (const std::invalid_argument& e) {
        std::cerr << "fdlab-cli: " << e.what() << '\n';
        return BadInput;
    } catch (const std::exception& e) {
        std::cerr << "fdlab-cli: " << fdlab::errorText(e) << '\n';
        return BadInput;
    }
}
