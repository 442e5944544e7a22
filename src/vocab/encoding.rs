//! The identity half of an HTTP encoding: the coding and its level, how it is written
//! and read. Negotiation and decoding are `http`'s.

use anyhow::{bail, Context as _, Result};

use super::CodecKind;

/// The level `auto` serves every codec at, as ASP.NET Core's Fastest does.
pub(crate) const AUTO_LEVEL: i32 = 1;

/// A content coding and its level, as `zstd:1`, `br:4`, `gzip:1` or `identity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Encoding {
    /// `Content-Encoding: zstd` at this level.
    Zstd(i32),
    /// `Content-Encoding: br` at this quality.
    Br(i32),
    /// `Content-Encoding: gzip` at this level.
    Gzip(i32),
    /// `Content-Encoding: dcz` (RFC 9842): zstd at this level against the dictionary
    /// the client offers in `Available-Dictionary`, if the server holds it.
    Dcz(i32),
    /// `Content-Encoding: dcb` (RFC 9842): brotli at this quality against the client's
    /// dictionary, as for `dcz`.
    Dcb(i32),
    /// No compression.
    Identity,
    /// zstd, br and gzip offered together at level 1, the server choosing by the
    /// request's `Accept-Encoding` in ASP.NET Core 11's order of preference (zstd, then
    /// br, then gzip); the client sends a browser's `gzip, deflate, br, zstd`.
    Auto,
}

/// What a browser sends: Chrome and Firefox list all four.
pub(crate) const BROWSER_ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

impl serde::Serialize for Encoding {
    /// As its label: `zstd:1`.
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

impl Encoding {
    /// `codec` at `level`, as HTTP names it.
    pub(crate) fn of(codec: CodecKind, level: i32) -> Self {
        match codec {
            CodecKind::Zstd => Encoding::Zstd(level),
            CodecKind::Brotli => Encoding::Br(level),
            CodecKind::Gzip => Encoding::Gzip(level),
        }
    }

    /// Parses `zstd:1`, `br:4`, `gzip:6` or `identity`, checking the level's range.
    pub(crate) fn parse(text: &str) -> Result<Self> {
        match text {
            "identity" => return Ok(Encoding::Identity),
            "auto" => return Ok(Encoding::Auto),
            _ => {}
        }
        let Some((name, level)) = text.split_once(':') else {
            bail!("encoding '{text}' is not CODING:LEVEL (zstd:1, br:4, gzip:1), identity or auto");
        };
        let level: i32 = level
            .parse()
            .with_context(|| format!("encoding '{text}': '{level}' is not an integer level"))?;
        let (encoding, range) = match name {
            "zstd" => (Encoding::Zstd(level), 1..=19),
            "br" => (Encoding::Br(level), 0..=11),
            "gzip" => (Encoding::Gzip(level), 0..=9),
            "dcz" => (Encoding::Dcz(level), 1..=19),
            "dcb" => (Encoding::Dcb(level), 0..=11),
            other => {
                bail!("encoding '{text}': unknown coding '{other}' (zstd, br, gzip, dcz, dcb, identity)")
            }
        };
        if !range.contains(&level) {
            bail!(
                "encoding '{text}': {name} levels here are {}..={}",
                range.start(),
                range.end()
            );
        }
        Ok(encoding)
    }

    /// The `Content-Encoding` token; `identity` for none.
    pub(crate) fn token(self) -> &'static str {
        match self {
            Encoding::Zstd(_) => "zstd",
            Encoding::Br(_) => "br",
            Encoding::Gzip(_) => "gzip",
            Encoding::Dcz(_) => "dcz",
            Encoding::Dcb(_) => "dcb",
            Encoding::Identity => "identity",
            Encoding::Auto => "auto",
        }
    }

    /// The label a table shows: `auto → zstd:1`, naming what every response to a
    /// browser's Accept-Encoding was checked to carry, else [`Encoding::label`].
    pub(crate) fn table_label(self) -> String {
        match self {
            Encoding::Auto => format!("auto → {}", Encoding::Zstd(AUTO_LEVEL).label()),
            other => other.label(),
        }
    }

    /// `zstd:1`, or `identity`.
    pub(crate) fn label(self) -> String {
        match self {
            Encoding::Zstd(l)
            | Encoding::Br(l)
            | Encoding::Gzip(l)
            | Encoding::Dcz(l)
            | Encoding::Dcb(l) => {
                format!("{}:{l}", self.token())
            }
            Encoding::Identity | Encoding::Auto => self.token().into(),
        }
    }

    /// Whether the client offers its dictionary: `dcz` and `dcb`.
    pub(crate) fn uses_dictionary(self) -> bool {
        matches!(self, Encoding::Dcz(_) | Encoding::Dcb(_))
    }
}
