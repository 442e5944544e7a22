"""Synthetic saved runs for the scale scripts: PAYLOADS x CELLS zstd cells, 15 samples a
direction (as a --iterations 15 run saves), every cell's identity its own."""

SAMPLES = 15


def summary(median):
    samples = [median * (1 + (i - SAMPLES // 2) * 0.004) for i in range(SAMPLES)]
    return {
        "median_s": median, "min_s": min(samples), "max_s": max(samples),
        "mean_s": sum(samples) / SAMPLES, "stddev_s": median * 0.01, "mad_s": median * 0.004,
        "median_ci95_low_s": samples[4], "median_ci95_high_s": samples[-5],
        "samples_s": samples,
    }


def cell(index, input_bytes):
    """zstd levels 1 to 19, fresh, then with a dictionary of 1, 2, 3... KiB: a series of
    19 settings per variant, every cell's identity its own."""
    level = 1 + index % 19
    ratio = 4.0 + level * 0.2 + (index % 7) * 0.05
    compress = 1e-4 * level * (1 + index % 5)
    variant = "fresh" if index < 19 else f"dict {index // 19} KiB"
    return {
        "codec": "zstd", "library": "libzstd", "variant": variant,
        "version": "1.5.7", "level": level, "dotnet_level": None,
        "compressed_bytes": int(input_bytes / ratio), "encoder_bytes": None,
        "compress": summary(compress), "decompress": summary(compress / 8),
        "status": "ok", "failure": None,
    }


def run(payloads, cells):
    return {
        "schema_version": 2,
        "environment": {
            "codecbench_version": "0.0.0", "git_commit": None,
            "timestamp": "2026-12-02T10:00:00Z", "cpu": "synthetic", "logical_cores": 2,
            "os": "linux", "arch": "x86_64", "rustc": None, "codecs": {},
        },
        "seed": 42, "rng": "dotnet",
        "payloads": [
            {
                "payload": f"body-{p}", "input_bytes": 100_000 + p, "sha256": None,
                "warmup": 3, "iterations": SAMPLES, "rounds": 5,
                "cells": [cell(c, 100_000 + p) for c in range(cells)],
            }
            for p in range(payloads)
        ],
    }
