// libchafa (1.12) renders pixels as terminal output: symbols, sixel, kitty, iTerm2.
// Its headers need glib's include paths, which `pkg-config chafa` supplies.
#ifndef POSTFEED_CCHAFA_SHIM_H
#define POSTFEED_CCHAFA_SHIM_H
#include <chafa.h>

/// Frees a GString returned by chafa_canvas_print, with its characters.
static inline void pf_gstring_free(GString *string) {
    (void)g_string_free(string, TRUE);
}
/// Symbol sets as plain values (CHAFA_SYMBOL_TAG_ALL is a negated enum constant that
/// Swift imports awkwardly).
static inline ChafaSymbolTags pf_chafa_tags_all(void) { return CHAFA_SYMBOL_TAG_ALL; }
static inline ChafaSymbolTags pf_chafa_tags_half_blocks(void) {
    return (ChafaSymbolTags)(CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID);
}
#endif
