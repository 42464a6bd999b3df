#pragma once
// The subcommands of fdlab-cli. Each takes its arguments (after the subcommand name), writes
// results to stdout and diagnostics to stderr, and returns an exit code (cli_args.h). Errors are
// thrown: UsageError -> 2, fdlab::DataError / std::invalid_argument -> 3 (see cli_main.cpp).

#include <functional>
#include <string>
#include <vector>

namespace fdlab::cli {

struct Command {
    std::string name;
    std::string summary;   ///< one line for the command list
    std::string help;      ///< full --help text
    std::function<int(const std::vector<std::string>&)> run;
};

/// Data commands: datasets, info.
std::vector<Command> dataCommands();
/// Experiment commands: presets, run, train, eval, attack.
std::vector<Command> experimentCommands();
/// Sharded sweeps: plan, merge (cli_sweep_commands.cpp).
std::vector<Command> sweepCommands();
/// The reproduction report: report (cli_report_command.cpp).
std::vector<Command> reportCommands();
/// `run ... --shard i/N --output PART.json`: runs one shard (runRun routes here).
int runShardedRun(const std::vector<std::string>& argv);

}  // namespace fdlab::cli
