//! What a measurement is of, as types: a cell's codec, library, variant and level; an
//! HTTP result's encoding and load. Runs are matched, and the reference is found, by
//! these values and never by reading display strings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::CodecKind;

/// The library that implements a codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Library {
    /// Meta's libzstd, through the `zstd` crate.
    #[serde(rename = "libzstd")]
    Libzstd,
    /// Google's C brotli, through `brotlic`: what .NET, nginx and browsers run.
    #[serde(rename = "libbrotli")]
    Libbrotli,
    /// The `brotli` crate, a Rust port of the C library.
    #[serde(rename = "brotli-rs")]
    BrotliRs,
    /// zlib-rs, the zlib-ng port behind `flate2`; .NET ships zlib-ng.
    #[serde(rename = "zlib-rs")]
    ZlibRs,
    /// madler's zlib, which nginx and Apache link.
    #[serde(rename = "zlib")]
    Zlib,
    /// Chromium's fork of zlib, which Node.js bundles: its bytes are not madler's. Only
    /// measured through a server (`codecbench lab`); codecbench cannot run it.
    #[serde(rename = "zlib-chromium")]
    ZlibChromium,
    /// klauspost/compress, the Go encoders Caddy runs. Only measured through a server.
    #[serde(rename = "klauspost-compress")]
    KlauspostCompress,
}

impl Library {
    /// Every library, in report order.
    pub const ALL: [Library; 7] = [
        Library::Libzstd,
        Library::Libbrotli,
        Library::BrotliRs,
        Library::ZlibRs,
        Library::Zlib,
        Library::ZlibChromium,
        Library::KlauspostCompress,
    ];

    /// The name in reports and files, e.g. `libzstd`.
    pub fn name(self) -> &'static str {
        match self {
            Library::Libzstd => "libzstd",
            Library::Libbrotli => "libbrotli",
            Library::BrotliRs => "brotli-rs",
            Library::ZlibRs => "zlib-rs",
            Library::Zlib => "zlib",
            Library::ZlibChromium => "zlib-chromium",
            Library::KlauspostCompress => "klauspost-compress",
        }
    }

    /// The library `server`'s `codec` encoder is, as the lab records a cell measured
    /// through it.
    pub(crate) fn served_by(server: super::Server, codec: CodecKind) -> Library {
        use super::Server;
        match (server, codec) {
            (Server::Caddy, CodecKind::Zstd | CodecKind::Gzip) => Library::KlauspostCompress,
            (Server::Express, CodecKind::Gzip) => Library::ZlibChromium,
            (Server::TowerHttp, CodecKind::Brotli) => Library::BrotliRs,
            (Server::TowerHttp | Server::Aspnetcore, CodecKind::Gzip) => Library::ZlibRs,
            (_, CodecKind::Zstd) => Library::Libzstd,
            (_, CodecKind::Brotli) => Library::Libbrotli,
            (_, CodecKind::Gzip) => Library::Zlib,
        }
    }

    /// The library web servers run for `codec`: the one a reference cell uses.
    pub fn servers_run(codec: CodecKind) -> Library {
        match codec {
            CodecKind::Zstd => Library::Libzstd,
            CodecKind::Brotli => Library::Libbrotli,
            CodecKind::Gzip => Library::ZlibRs,
        }
    }
}

impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Library {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Library::ALL
            .into_iter()
            .find(|library| library.name() == text)
            .ok_or_else(|| format!("unknown library '{text}'"))
    }
}

/// How each response's encoder comes to be. JSON and CSV both spell it as `Display`
/// writes it (`fresh`, `one-shot`, `dict 4 KiB`, `flush 16 KiB`); JSON written before
/// that (`one_shot`, `{"dictionary": {"kib": 4}}`, `{"flushed": {"chunk": 16384}}`)
/// still reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    /// A new encoder per response: the article's method, and ASP.NET Core's.
    Fresh,
    /// One encoder kept and reset between responses, as a pool would.
    Reused,
    /// A fresh encoder that references a trained dictionary of this many KiB.
    Dictionary {
        /// The most the dictionary may hold, in KiB.
        kib: u32,
    },
    /// A fresh encoder given the whole body in one call with its size known (`--api
    /// oneshot`), and decompression in one call.
    OneShot,
    /// A fresh streaming encoder written `chunk` bytes at a time and flushed after each
    /// (`--api flush:SIZE`).
    Flushed {
        /// Bytes per piece.
        chunk: u32,
    },
    /// The encoder as nginx drives it (`--server nginx`): its window fitted to the body
    /// and the body handed over in nginx's 32 KiB buffers.
    Nginx,
    /// tower-http's `CompressionLayer` run in-process (`--server tower-http`).
    TowerHttp,
    /// Measured through the real server (`codecbench lab`): the bytes it sent, and as
    /// the compression time, the CPU its process spent per response beyond an identity
    /// response's.
    Served {
        /// The server.
        server: super::Server,
    },
    /// The encoder as Apache httpd's mod_deflate or mod_brotli drives it (`--server
    /// apache`): fixed windows, zlib's memLevel 9, the file in one piece.
    Apache,
    /// The encoder fed as ASP.NET Core's middleware feeds it a serialized JSON body
    /// (`--server aspnetcore`): in the serializer's writes, flushed where it flushes.
    Aspnetcore {
        /// The endpoint style, which decides the flushes.
        writer: super::AspnetcoreWriter,
    },
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Fresh => f.write_str("fresh"),
            Variant::Reused => f.write_str("reused"),
            Variant::Dictionary { kib } => write!(f, "dict {kib} KiB"),
            Variant::OneShot => f.write_str("one-shot"),
            Variant::Nginx => f.write_str("nginx"),
            Variant::TowerHttp => f.write_str("tower-http"),
            Variant::Apache => f.write_str("apache"),
            Variant::Served { server } => write!(f, "served by {server}"),
            Variant::Aspnetcore { writer } => write!(f, "aspnetcore {}", writer.name()),
            Variant::Flushed { chunk } if chunk % 1024 == 0 => {
                write!(f, "flush {} KiB", chunk / 1024)
            }
            Variant::Flushed { chunk } => write!(f, "flush {chunk} B"),
        }
    }
}

impl FromStr for Variant {
    type Err = String;

    /// Reads what [`Display`](fmt::Display) writes, as the CSV column holds it.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "fresh" => Ok(Variant::Fresh),
            "reused" => Ok(Variant::Reused),
            "one-shot" => Ok(Variant::OneShot),
            "nginx" => Ok(Variant::Nginx),
            "tower-http" => Ok(Variant::TowerHttp),
            "apache" => Ok(Variant::Apache),
            _ if text.starts_with("flush ") => flushed(text),
            _ if text.starts_with("served by ") => text
                .strip_prefix("served by ")
                .and_then(super::Server::from_name)
                .map(|server| Variant::Served { server })
                .ok_or_else(|| format!("unknown variant '{text}'")),
            _ if text.starts_with("aspnetcore ") => text
                .strip_prefix("aspnetcore ")
                .and_then(super::AspnetcoreWriter::from_name)
                .map(|writer| Variant::Aspnetcore { writer })
                .ok_or_else(|| format!("unknown variant '{text}'")),
            _ => text
                .strip_prefix("dict ")
                .and_then(|rest| rest.strip_suffix(" KiB"))
                .and_then(|kib| kib.parse().ok())
                .map(|kib| Variant::Dictionary { kib })
                .ok_or_else(|| format!("unknown variant '{text}'")),
        }
    }
}

impl Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// The forms JSON has held: the `Display` text, or serde's enum forms of old.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Text(String),
            Old(Old),
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Old {
            Dictionary { kib: u32 },
            Flushed { chunk: u32 },
        }
        match Form::deserialize(deserializer)? {
            Form::Text(text) => match text.as_str() {
                "one_shot" => Ok(Variant::OneShot),
                "tower_http" => Ok(Variant::TowerHttp),
                _ => text.parse().map_err(serde::de::Error::custom),
            },
            Form::Old(Old::Dictionary { kib }) => Ok(Variant::Dictionary { kib }),
            Form::Old(Old::Flushed { chunk }) => Ok(Variant::Flushed { chunk }),
        }
    }
}

/// `flush 16 KiB` or `flush 1000 B`, as [`Variant`]'s `Display` writes it.
fn flushed(text: &str) -> Result<Variant, String> {
    let size = text.trim_start_matches("flush ");
    let chunk = if let Some(kib) = size.strip_suffix(" KiB") {
        kib.parse::<u32>().ok().and_then(|k| k.checked_mul(1024))
    } else {
        size.strip_suffix(" B").and_then(|b| b.parse().ok())
    };
    chunk
        .map(|chunk| Variant::Flushed { chunk })
        .ok_or_else(|| format!("unknown variant '{text}'"))
}

/// What a cell measures, apart from its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellId {
    /// The content coding.
    pub codec: CodecKind,
    /// The library, without its version, so that an upgrade compares cell by cell.
    pub library: Library,
    /// Fresh, reused or with a dictionary.
    pub variant: Variant,
    /// The codec's own level or quality.
    pub level: i32,
}

impl CellId {
    /// The cell speeds are normalised to: `codec` at `level`, with a fresh encoder from
    /// the library servers run.
    pub fn reference(codec: CodecKind, level: i32) -> Self {
        CellId {
            codec,
            library: Library::servers_run(codec),
            variant: Variant::Fresh,
            level,
        }
    }
}

impl fmt::Display for CellId {
    /// e.g. `zstd 1 (libzstd)` or `zstd 1 (libzstd, reused)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({}", self.codec, self.level, self.library)?;
        if self.variant != Variant::Fresh {
            write!(f, ", {}", self.variant)?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_variants_read_back_what_they_write() {
        for library in Library::ALL {
            assert_eq!(library.name().parse::<Library>(), Ok(library));
        }
        for variant in [
            Variant::Fresh,
            Variant::Reused,
            Variant::Dictionary { kib: 4 },
            Variant::OneShot,
            Variant::Nginx,
            Variant::TowerHttp,
            Variant::Apache,
            Variant::Served {
                server: crate::vocab::Server::Nginx,
            },
            Variant::Flushed { chunk: 16384 },
            Variant::Flushed { chunk: 1000 },
        ] {
            assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
            // JSON spells it as CSV does.
            let json = serde_json::to_string(&variant).unwrap();
            assert_eq!(json, format!("\"{variant}\""));
            assert_eq!(serde_json::from_str::<Variant>(&json).unwrap(), variant);
        }
        // JSON written before one spelling still reads.
        for (old, variant) in [
            ("\"one_shot\"", Variant::OneShot),
            ("\"tower_http\"", Variant::TowerHttp),
            (
                "{\"dictionary\":{\"kib\":4}}",
                Variant::Dictionary { kib: 4 },
            ),
            (
                "{\"flushed\":{\"chunk\":16384}}",
                Variant::Flushed { chunk: 16384 },
            ),
        ] {
            assert_eq!(
                serde_json::from_str::<Variant>(old).unwrap(),
                variant,
                "{old}"
            );
        }
        assert!(serde_json::from_str::<Variant>("\"warm\"").is_err());
        assert!("dict four KiB".parse::<Variant>().is_err());
        assert!("zstd".parse::<Library>().is_err());
    }

    #[test]
    fn the_reference_is_the_fresh_server_library() {
        let reference = CellId::reference(CodecKind::Brotli, 4);
        assert_eq!(reference.library, Library::Libbrotli);
        assert_eq!(reference.to_string(), "brotli 4 (libbrotli)");
        let dictionary = CellId {
            variant: Variant::Dictionary { kib: 4 },
            ..CellId::reference(CodecKind::Zstd, 1)
        };
        assert_ne!(dictionary, CellId::reference(CodecKind::Zstd, 1));
        assert_eq!(dictionary.to_string(), "zstd 1 (libzstd, dict 4 KiB)");
    }
}
