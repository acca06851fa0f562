// app/panel.h — the ImGui panel's option widgets.
// Every option of the options struct gets a widget from its registry entry
// (kind, choices), so the panel, the command line and the scene file name the
// same fields.
#pragma once

#include <string>
#include <vector>

#include "core/options.h"

namespace strata {

// Draws the widgets of every option whose key starts with `block` ("render.").
// Returns true if any option changed (then `o` holds the new values).
// `hidden` names options to leave out; `ruledOut` lists the choices the
// other options rule out now (Options::unavailable): they are greyed in
// their list, and hovering one says why.
bool optionWidgets(Options& o, const std::string& block, const std::vector<std::string>& hidden = {},
                   const std::vector<Unavailable>& ruledOut = {});

// The GPU kd-tree's switches in their own group: a preset row (the
// chapter's Original and All, All + strata's switches), Table 13.1's [A]-[E],
// then strata's own. kdSwitchKeys() lists the options it draws.
bool kdTreeWidgets(Options& o);
// A derived preset option's values (accel.kd_preset, vd.method) as a row of
// buttons, the current one lit, "(custom)" after them when none is.
bool presetButtons(Options& o, const char* key);
// A greyed note wrapped at the window's width (why something is not shown).
void disabledNote(const char* text);
const std::vector<std::string>& kdSwitchKeys();


}  // namespace strata
