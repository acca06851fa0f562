// strata-cli — headless render, benchmark and validation. Links no GL, GLFW
// or X library, so it runs on GPU machines without a display.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "core/build_info.h"
#include "strata_version.h"
#include "core/error.h"
#include "core/output_file.h"
#include "core/suggest.h"

int main(int argc, char** argv) {
    strata::removeOutputsOnSignal();  // Ctrl-C leaves no half-written OUT.tmp-PID
    CLI::App app{"strata-cli: headless render, bench, validate, sweep and soak for the strata path tracer"};
    app.set_version_flag("--version", std::string("strata-cli ") + STRATA_VERSION + ", " + strata::builtWith());
    app.footer("Exit status: 0 done; 1 an error strata reports (bad input, no GPU, a failed check); 2 a usage error.");
    app.require_subcommand(1);
    auto render = strata::cli::addRenderCommand(app);
    auto bench = strata::cli::addBenchCommand(app);
    auto validate = strata::cli::addValidateCommand(app);
    auto soak = strata::cli::addSoakCommand(app);
    auto kdtable = strata::cli::addKdTableCommand(app);
    auto vdtable = strata::cli::addVdTableCommand(app);
    auto sweep = strata::cli::addSweepCommand(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; a usage error 2 (strata's own errors: 1).
        if (app.exit(e) == 0) return 0;
        const std::string hint = strata::usageHint(app, argc, argv);
        if (!hint.empty()) std::fprintf(stderr, "strata-cli: %s\n", hint.c_str());
        return 2;
    }
    try {
        if (app.got_subcommand("render")) return render();
        if (app.got_subcommand("bench")) return bench();
        if (app.got_subcommand("validate")) return validate();
        if (app.got_subcommand("soak")) return soak();
        if (app.got_subcommand("kdtable")) return kdtable();
        if (app.got_subcommand("vdtable")) return vdtable();
        if (app.got_subcommand("sweep")) return sweep();
    } catch (const strata::Error& e) {
        std::fprintf(stderr, "strata-cli: error: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "strata-cli: error: out of host memory\n");
        return 1;
    }
    return 1;
}
