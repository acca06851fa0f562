// core/suggest.h — "did you mean ...?" for a mistyped command-line option or
// subcommand: the closest known name by edit distance. usageHint walks a
// CLI11 app (any type with CLI11's interface; core does not include CLI11).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace strata {

// Levenshtein distance (insertions, deletions, substitutions).
inline size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// The name closest to `typed`, or "" when none is close: at most a third of
// the typed name's characters (and at least 2) differ. Ties: the first.
inline std::string closestName(const std::string& typed, const std::vector<std::string>& names) {
    const size_t allowed = std::max<size_t>(2, typed.size() / 3);
    std::string best;
    size_t bestDistance = allowed + 1;
    for (const std::string& n : names) {
        const size_t d = editDistance(typed, n);
        if (d < bestDistance) bestDistance = d, best = n;
    }
    return best;
}

// After a usage error: "did you mean --spp?" for the first argument that
// names no option of the app or of the subcommand on the command line
// ("--sppp 3", "--sppp=3"), or "did you mean render?" for a first argument
// that names no subcommand; "" when nothing known is close.
template <class App>
std::string usageHint(App& app, int argc, char** argv) {
    std::vector<std::string> subcommands, options;
    const auto all = app.get_subcommands([](const auto*) { return true; });
    for (const auto* s : all) subcommands.push_back(s->get_name());
    auto addOptions = [&](const auto* a) {
        for (const auto* o : a->get_options())
            for (const std::string& n : o->get_lnames()) options.push_back("--" + n);
    };
    addOptions(&app);
    for (int i = 1; i < argc; ++i)
        for (const auto* s : all)
            if (s->get_name() == argv[i]) addOptions(s);
    auto known = [](const std::vector<std::string>& v, const std::string& x) {
        return std::find(v.begin(), v.end(), x) != v.end();
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0) {
            const std::string name = arg.substr(0, arg.find('='));
            if (known(options, name)) continue;
            const std::string near = closestName(name, options);
            return near.empty() ? std::string() : "did you mean " + near + "?";
        }
        if (i == 1 && !subcommands.empty() && !arg.empty() && arg[0] != '-' && !known(subcommands, arg)) {
            const std::string near = closestName(arg, subcommands);
            return near.empty() ? std::string() : "did you mean " + near + "?";
        }
    }
    return {};
}

}  // namespace strata
