// cli/commands.h — the strata-cli subcommands.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace strata::cli {

// Each registers its subcommand and returns the function that runs it.
std::function<int()> addRenderCommand(CLI::App& app);
std::function<int()> addBenchCommand(CLI::App& app);
std::function<int()> addValidateCommand(CLI::App& app);
std::function<int()> addSoakCommand(CLI::App& app);
std::function<int()> addKdTableCommand(CLI::App& app);
std::function<int()> addVdTableCommand(CLI::App& app);
std::function<int()> addSweepCommand(CLI::App& app);

}  // namespace strata::cli
