//! Unit tests of the codec adapters.

use super::*;
use crate::vocab::CodecKind;

/// A tiny JSON-like input, so the test runs fast even at the slowest levels.
fn sample_input() -> Vec<u8> {
    crate::payload::generate(20, 1, crate::payload::RngKind::Dotnet)
}

#[test]
fn every_default_level_round_trips() {
    let input = sample_input();
    for codec in all_implementations() {
        let name = codec.label();
        for level in codec.default_levels() {
            assert!(codec.supported_levels().contains(&level));
            let compressed = codec.compress(level, &input).unwrap();
            assert!(compressed.len() < input.len(), "{name} {level} compresses");
            assert_eq!(
                codec.decompress(&compressed).unwrap(),
                input,
                "{name} {level}"
            );
        }
    }
}

#[test]
fn range_ends_round_trip() {
    let input = sample_input();
    for codec in all_implementations() {
        let range = codec.supported_levels();
        for level in [*range.start(), *range.end()] {
            let compressed = codec.compress(level, &input).unwrap();
            assert_eq!(
                codec.decompress(&compressed).unwrap(),
                input,
                "{} {level}",
                codec.label()
            );
        }
    }
}

#[test]
fn corrupt_input_is_an_error_not_a_panic() {
    for codec in all_implementations() {
        let garbage = b"this is not a compressed stream at all, not even close";
        assert!(codec.decompress(garbage).is_err(), "{}", codec.label());
    }
}

#[test]
fn each_brotli_implementation_decodes_the_others_output() {
    let input = crate::payload::generate(1000, 42, crate::payload::RngKind::Dotnet);
    let (c_lib, port) = (Brotli(BrotliLibrary::C), Brotli(BrotliLibrary::RustPort));
    let c = c_lib.compress(1, &input).unwrap();
    let rust = port.compress(1, &input).unwrap();
    assert_eq!(
        c.len(),
        44_606,
        "the article's brotli Fastest size on small"
    );
    assert_eq!(c, rust, "the port is byte-exact with C at quality 1");
    for quality in [4, 11] {
        let c = c_lib.compress(quality, &input).unwrap();
        let rust = port.compress(quality, &input).unwrap();
        assert_eq!(port.decompress(&c).unwrap(), input, "q{quality}");
        assert_eq!(c_lib.decompress(&rust).unwrap(), input, "q{quality}");
    }
}

#[test]
fn measuring_memory_gives_the_same_bytes_and_a_plausible_size() {
    let input = crate::payload::generate(1000, 42, crate::payload::RngKind::Dotnet);
    for codec in all_implementations() {
        let name = codec.label();
        for level in [1, 9] {
            let plain = codec.compress(level, &input).unwrap();
            let (measured, bytes) = codec.compress_measuring_memory(level, &input).unwrap();
            assert_eq!(plain, measured, "{name} {level}");
            let bytes = bytes.unwrap_or_else(|| panic!("{name} {level} measured"));
            // Every encoder needs tables of some kilobytes; none needs a gigabyte.
            assert!((4_096..1 << 30).contains(&bytes), "{name} {level}: {bytes}");
        }
    }
    // zstd's context grows with the level's window.
    let zstd = super::server_codec(CodecKind::Zstd);
    let size = |level| {
        zstd.compress_measuring_memory(level, &input)
            .unwrap()
            .1
            .unwrap()
    };
    assert!(size(19) > size(1));
}

#[test]
fn brotli_impl_picks_implementations() {
    let picked = |choice: BrotliImpl| -> Vec<String> {
        all_implementations()
            .iter()
            .filter(|c| choice.includes(c.as_ref()))
            .map(|c| c.library().name().to_string())
            .collect()
    };
    assert_eq!(picked(BrotliImpl::C), ["libzstd", "libbrotli", "zlib-rs"]);
    assert_eq!(
        picked(BrotliImpl::Rust),
        ["libzstd", "brotli-rs", "zlib-rs"]
    );
    assert_eq!(
        picked(BrotliImpl::Both),
        ["libzstd", "libbrotli", "brotli-rs", "zlib-rs"]
    );
}

#[test]
fn dotnet_names_follow_the_mapping_table() {
    use DotnetLevel::*;
    let names = |kind: CodecKind| {
        let codec = super::server_codec(kind);
        codec
            .supported_levels()
            .filter_map(|level| codec.dotnet_level(level).map(|name| (level, name)))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(CodecKind::Zstd),
        vec![
            (::zstd::zstd_safe::min_c_level(), NoCompression),
            (1, Fastest),
            (3, Optimal),
            (22, SmallestSize)
        ]
    );
    assert_eq!(
        names(CodecKind::Brotli),
        vec![
            (0, NoCompression),
            (1, Fastest),
            (4, Optimal),
            (11, SmallestSize)
        ]
    );
    assert_eq!(
        names(CodecKind::Gzip),
        vec![
            (0, NoCompression),
            (1, Fastest),
            (6, Optimal),
            (9, SmallestSize)
        ]
    );
}
