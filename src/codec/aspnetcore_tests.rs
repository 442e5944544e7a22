use brotlic_sys::{
    BrotliEncoderOperation, BrotliEncoderOperation_BROTLI_OPERATION_FINISH,
    BrotliEncoderOperation_BROTLI_OPERATION_FLUSH, BrotliEncoderOperation_BROTLI_OPERATION_PROCESS,
};

use super::*;
use crate::codec::stj_writer::flushed_segments;
use crate::codec::Codec;
use crate::payload::{generate, RngKind};

fn small() -> Vec<u8> {
    generate(1000, 42, RngKind::Dotnet)
}

#[test]
fn minimal_and_mvc_write_each_segment_and_flush_each_piece_net8_mvc_flushes_once() {
    let body = small();
    let flushes = flushed_segments(&body);
    let minimal = plan(&body, AspnetcoreWriter::Minimal);
    assert_eq!(
        minimal[..5],
        [
            StreamCall::Write(0..4057),
            StreamCall::Write(4057..8126),
            StreamCall::Write(8126..12172),
            StreamCall::Write(12172..14783),
            StreamCall::Flush,
        ]
    );
    assert_eq!(plan(&body, AspnetcoreWriter::Mvc), minimal);
    let flush_count = minimal.iter().filter(|s| **s == StreamCall::Flush).count();
    assert_eq!(flush_count, flushes.len());
    let mut expected: Vec<StreamCall> = flushes
        .iter()
        .map(|f| StreamCall::Write(f[0].start..f.last().unwrap().end))
        .collect();
    expected.push(StreamCall::Flush);
    assert_eq!(plan(&body, AspnetcoreWriter::MvcNet8), expected);
}

/// The steps through C brotli's own API, not brotlic's writer that the model drives:
/// PROCESS for a write, FLUSH for a flush, FINISH at the end, window 22.
fn raw_brotli(quality: u8, body: &[u8], steps: &[StreamCall]) -> Vec<u8> {
    let mut calls: Vec<(BrotliEncoderOperation, &[u8])> = steps
        .iter()
        .map(|step| match step {
            StreamCall::Write(range) => (
                BrotliEncoderOperation_BROTLI_OPERATION_PROCESS,
                &body[range.clone()],
            ),
            StreamCall::Flush => (BrotliEncoderOperation_BROTLI_OPERATION_FLUSH, &[][..]),
        })
        .collect();
    calls.push((BrotliEncoderOperation_BROTLI_OPERATION_FINISH, &[]));
    brotli_c::compress_by_calls(quality, &calls).unwrap()
}

#[test]
fn brotli_on_the_small_payload_is_the_c_library_fed_the_same_calls() {
    let body = small();
    for writer in AspnetcoreWriter::ALL {
        for quality in [1, 4] {
            let ours = compress(CodecKind::Brotli, quality.into(), &body, writer).unwrap();
            let raw = raw_brotli(quality, &body, &plan(&body, writer));
            assert_eq!(ours, raw, "{writer:?} quality {quality}");
        }
    }
    // Quality 1 compresses each call's input as a block of its own: the pieces cost
    // bytes against the article's one write (44,606 B).
    let minimal = compress(CodecKind::Brotli, 1, &body, AspnetcoreWriter::Minimal).unwrap();
    assert!(minimal.len() > 44_606, "{}", minimal.len());
}

#[test]
fn every_codec_and_writer_round_trips_and_flushes_cost_bytes() {
    let body = small();
    for kind in CodecKind::ALL {
        let level = 1;
        let article = super::super::server_codec(kind)
            .compress(level, &body)
            .unwrap();
        for writer in AspnetcoreWriter::ALL {
            let wire = super::super::api::ThroughApi::new(
                kind,
                super::super::api::Api::Aspnetcore { writer },
            );
            assert_eq!(
                wire.variant().to_string(),
                format!("aspnetcore {}", writer.name())
            );
            let compressed = wire.compress(level, &body).unwrap();
            assert_eq!(
                wire.decompress(&compressed).unwrap(),
                body,
                "{kind} {writer:?}"
            );
            if writer == AspnetcoreWriter::Minimal {
                // Twenty-one flushes end as many blocks early.
                assert!(compressed.len() > article.len(), "{kind}");
            }
        }
    }
}

#[test]
fn a_body_under_the_threshold_is_one_write_and_one_flush() {
    let body = generate(1, 42, RngKind::Dotnet);
    for writer in AspnetcoreWriter::ALL {
        assert_eq!(
            plan(&body, writer),
            [StreamCall::Write(0..body.len()), StreamCall::Flush]
        );
    }
    assert!(plan(b"", AspnetcoreWriter::Minimal).is_empty());
}

/// Quality 4 on large also pays for .NET 8 MVC's pieces (442,970 B against 428,717 in
/// one write): the library's doing, as the raw calls show.
#[test]
fn brotli_4_on_the_large_payload_is_the_c_library_fed_the_same_calls() {
    let body = generate(10_000, 42, RngKind::Dotnet);
    let ours = compress(CodecKind::Brotli, 4, &body, AspnetcoreWriter::MvcNet8).unwrap();
    let raw = raw_brotli(4, &body, &plan(&body, AspnetcoreWriter::MvcNet8));
    assert_eq!(ours, raw);
    assert_eq!(ours.len(), 442_970);
}

#[test]
fn the_memo_reuses_a_plan_only_for_the_same_body_and_writer() {
    let memo = PlanMemo::default();
    let check = |body: &[u8], writer| {
        let memoised = memo.compress(CodecKind::Brotli, 1, body, writer).unwrap();
        let fresh = compress(CodecKind::Brotli, 1, body, writer).unwrap();
        let sizes = format!("{} against {} B", memoised.len(), fresh.len());
        assert!(memoised == fresh, "{writer:?}: {sizes}");
    };
    for writer in AspnetcoreWriter::ALL {
        let mut body = small();
        check(&body, writer);
        check(&body, writer);
        // The same allocation and length with other bytes: the plan is made again.
        let address = body.as_ptr();
        body.rotate_left(150);
        assert_eq!(body.as_ptr(), address);
        check(&body, writer);
    }
    // The same body for the other writer: its own plan.
    let body = small();
    check(&body, AspnetcoreWriter::Minimal);
    check(&body, AspnetcoreWriter::Mvc);
}

/// The bytes `docs/servers.md` and `results/aspnetcore-wire.md` print for large: brotli 1,
/// zstd 1 and gzip 1 on each path (MVC's plan is minimal's since .NET 9).
#[test]
fn the_large_payload_on_each_path_gives_the_documented_bytes() {
    let body = generate(10_000, 42, RngKind::Dotnet);
    assert_eq!(
        plan(&body, AspnetcoreWriter::Mvc),
        plan(&body, AspnetcoreWriter::Minimal)
    );
    let expected = [
        (AspnetcoreWriter::Minimal, [421_708, 715_244, 700_374]),
        (AspnetcoreWriter::MvcNet8, [409_808, 554_983, 697_255]),
    ];
    for (writer, sizes) in expected {
        let kinds = [CodecKind::Zstd, CodecKind::Brotli, CodecKind::Gzip];
        for (kind, size) in kinds.into_iter().zip(sizes) {
            let compressed = compress(kind, 1, &body, writer).unwrap();
            assert_eq!(compressed.len(), size, "{kind} 1, {writer:?}");
        }
    }
}
