//! The smallest honest compression loop, for scripts/overhead.sh to hold codecbench's
//! figures against: read a file, then compress it N times with a fresh encoder into a
//! fresh buffer each time, calling the libraries directly, and print the median MB/s.
//!
//! Usage: `direct_loop zstd|brotli|gzip LEVEL FILE ITERATIONS`

use std::io::Write;
use std::time::{Duration, Instant};

fn compress(codec: &str, level: u32, input: &[u8]) -> Vec<u8> {
    match codec {
        "zstd" => {
            let mut encoder = zstd::stream::Encoder::new(Vec::new(), level as i32).expect("zstd");
            encoder.write_all(input).expect("zstd");
            encoder.finish().expect("zstd")
        }
        "brotli" => {
            let encoder = brotlic::BrotliEncoderOptions::new()
                .quality(brotlic::Quality::new(level as u8).expect("quality"))
                .window_size(brotlic::WindowSize::new(22).expect("window"))
                .build()
                .expect("encoder");
            let mut writer = brotlic::CompressorWriter::with_encoder(encoder, Vec::new());
            writer.write_all(input).expect("brotli");
            writer.into_inner().expect("brotli")
        }
        "gzip" => {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            encoder.write_all(input).expect("gzip");
            encoder.finish().expect("gzip")
        }
        other => panic!("unknown codec {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, codec, level, file, iterations] = &args[..] else {
        eprintln!("usage: direct_loop zstd|brotli|gzip LEVEL FILE ITERATIONS");
        std::process::exit(2);
    };
    let level: u32 = level.parse().expect("LEVEL");
    let iterations: usize = iterations.parse().expect("ITERATIONS");
    let input = std::fs::read(file).expect("FILE");
    for _ in 0..3 {
        std::hint::black_box(compress(codec, level, &input));
    }
    let mut times: Vec<Duration> = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            let output = std::hint::black_box(compress(codec, level, std::hint::black_box(&input)));
            let elapsed = start.elapsed();
            drop(output);
            elapsed
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    println!("{:.3}", input.len() as f64 / 1e6 / median);
}
