// libchafa (1.12) renders pixels as terminal output: symbols, sixel, kitty, iTerm2.
// Its headers need glib's include paths, which `pkg-config chafa` supplies.
#ifndef POSTFEED_CCHAFA_SHIM_H
#define POSTFEED_CCHAFA_SHIM_H
#include <chafa.h>
#include <pthread.h>

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

/// chafa's own default set, what the `chafa` command draws with when `--symbols` is not
/// given: "block+border+space-wide-inverted" (blocks, box drawing and space; no
/// double-width symbols, no inverted duplicates). No letters, digits or kana.
static inline void pf_chafa_symbol_map_add_standard(ChafaSymbolMap *map) {
    chafa_symbol_map_add_by_tags(map, (ChafaSymbolTags)(CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SPACE));
    chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE);
    chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_INVERTED);
}

/// chafa's one-time set-up, what the first canvas of a process pays (about 1 ms: its
/// symbol tables, the canvas machinery): a 1×1 canvas with the standard set, built and freed.
static void *pf_chafa_warm_up(void *unused) {
    (void)unused;
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, 1, 1);
    ChafaSymbolMap *map = chafa_symbol_map_new();
    pf_chafa_symbol_map_add_standard(map);
    chafa_canvas_config_set_symbol_map(config, map);
    chafa_symbol_map_unref(map);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    if (canvas != NULL) chafa_canvas_unref(canvas);
    chafa_canvas_config_unref(config);
    chafa_term_info_unref(chafa_term_db_get_fallback_info(chafa_term_db_get_default()));
    return NULL;
}

/// Starts `pf_chafa_warm_up` on a new thread. Returns 0 when no thread could be made.
static inline int pf_chafa_warm_up_start(pthread_t *thread) {
    return pthread_create(thread, NULL, pf_chafa_warm_up, NULL) == 0;
}

static inline void pf_chafa_warm_up_join(pthread_t thread) {
    pthread_join(thread, NULL);
}
#endif
