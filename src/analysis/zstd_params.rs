//! The compression parameters libzstd really selects for each level, for a body of known
//! size and for a stream of unknown size, beside the table the article prints.
//!
//! libzstd picks a row of its level tables (`ZSTD_defaultCParameters` in
//! `lib/compress/clevels.h`) by source size: up to 16 KB, up to 128 KB, up to 256 KB, and
//! above or unknown. `ZSTD_getCParams(level, srcSize, 0)` returns that row, adjusted to
//! the size; a size of 0 means unknown, which is what a streaming encoder without a
//! pledged size uses.

use serde::Serialize;
use zstd::zstd_safe::zstd_sys;

/// The parameters of one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct LevelParams {
    /// Compression level.
    pub level: i32,
    /// `fast`, `dfast`, `greedy`, `lazy`, `lazy2`, `btlazy2`, `btopt`, `btultra` or
    /// `btultra2`.
    pub strategy: &'static str,
    /// log2 of the window: the farthest back a match may reach.
    pub window_log: u32,
    /// log2 of the match-chain table (unused by `fast`).
    pub chain_log: u32,
    /// log2 of the hash table.
    pub hash_log: u32,
    /// log2 of the number of searches.
    pub search_log: u32,
    /// Shortest match searched for.
    pub min_match: u32,
    /// Match length the optimal parsers are content with (strategy-dependent meaning).
    pub target_length: u32,
}

/// What libzstd selects for `level` and a body of `source_size` bytes (`None`: unknown).
pub(crate) fn selected(level: i32, source_size: Option<u64>) -> LevelParams {
    // SAFETY: a pure function of its arguments.
    let p = unsafe { zstd_sys::ZSTD_getCParams(level, source_size.unwrap_or(0), 0) };
    LevelParams {
        level,
        strategy: strategy_name(p.strategy as u32),
        window_log: p.windowLog,
        chain_log: p.chainLog,
        hash_log: p.hashLog,
        search_log: p.searchLog,
        min_match: p.minMatch,
        target_length: p.targetLength,
    }
}

fn strategy_name(strategy: u32) -> &'static str {
    match strategy {
        1 => "fast",
        2 => "dfast",
        3 => "greedy",
        4 => "lazy",
        5 => "lazy2",
        6 => "btlazy2",
        7 => "btopt",
        8 => "btultra",
        9 => "btultra2",
        _ => "unknown",
    }
}

/// One row of the article's parameter table: level, strategy, windowLog, chainLog,
/// hashLog, minMatch (FIGURES.md, "libzstd parameters by level, as the article lists
/// them").
pub(crate) type ArticleRow = (i32, &'static str, u32, u32, u32, u32);

/// The article's table, levels 1 to 6.
pub(crate) const ARTICLE: [ArticleRow; 6] = [
    (1, "fast", 19, 13, 14, 7),
    (2, "fast", 20, 15, 16, 6),
    (3, "dfast", 21, 16, 17, 5),
    (4, "dfast", 21, 18, 18, 5),
    (5, "greedy", 21, 18, 19, 5),
    (6, "lazy", 21, 18, 19, 5),
];

/// The article's row for `level`, if it lists one.
pub(crate) fn article_row(level: i32) -> Option<ArticleRow> {
    ARTICLE.iter().copied().find(|row| row.0 == level)
}

/// Which of the article's five values differ from `params`, by column name.
#[cfg(test)]
fn differences(params: &LevelParams) -> Vec<&'static str> {
    let Some((_, strategy, window, chain, hash, min_match)) = article_row(params.level) else {
        return Vec::new();
    };
    [
        ("strategy", params.strategy != strategy),
        ("windowLog", params.window_log != window),
        ("chainLog", params.chain_log != chain),
        ("hashLog", params.hash_log != hash),
        ("minMatch", params.min_match != min_match),
    ]
    .into_iter()
    .filter_map(|(name, differs)| differs.then_some(name))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_size_uses_the_large_input_table_which_the_article_prints() {
        // clevels.h, the row for large or unknown inputs, in libzstd 1.5.7.
        let one = selected(1, None);
        let columns = (
            one.strategy,
            one.window_log,
            one.chain_log,
            one.hash_log,
            one.min_match,
        );
        assert_eq!(columns, ("fast", 19, 13, 14, 7));
        for level in 1..=6 {
            assert!(
                differences(&selected(level, None)).is_empty(),
                "level {level}"
            );
        }
        assert_eq!(selected(19, None).strategy, "btultra2");
    }

    #[test]
    fn a_known_small_size_shrinks_the_window() {
        // 290 bytes: the window shrinks to 1 KiB, and levels 4-6 use the small-input
        // table's strategies.
        let single = selected(4, Some(290));
        assert_eq!((single.strategy, single.window_log), ("greedy", 10));
        assert_eq!(
            differences(&single),
            ["strategy", "windowLog", "chainLog", "hashLog", "minMatch"]
        );
        // 298,727 bytes: the large-input row, with the window capped at 2^19 ≥ the body.
        let small = selected(3, Some(298_727));
        assert_eq!(
            (small.strategy, small.window_log, small.chain_log),
            ("dfast", 19, 16)
        );
        assert_eq!(differences(&small), ["windowLog"]);
    }

    #[test]
    fn differences_name_each_column_that_disagrees() {
        let mut row = selected(1, None);
        assert!(differences(&row).is_empty());
        row.min_match = 6;
        assert_eq!(differences(&row), ["minMatch"]);
        assert!(differences(&selected(9, None)).is_empty(), "no article row");
    }
}
