//! The CSV columns of each kind of saved run, spelled once: the exporters write these
//! headers, and the reader finds each field by the same name.
// NOTE: docs/schema.md documents these columns; change both together.

/// `run`'s columns: one row per payload × codec × level. Each direction has the same nine statistics columns.
pub(crate) mod run {
    /// `payload`.
    pub(crate) const PAYLOAD: &str = "payload";
    /// `input_bytes`.
    pub(crate) const INPUT_BYTES: &str = "input_bytes";
    /// `codec`.
    pub(crate) const CODEC: &str = "codec";
    /// `library`.
    pub(crate) const LIBRARY: &str = "library";
    /// `variant`.
    pub(crate) const VARIANT: &str = "variant";
    /// `version`.
    pub(crate) const VERSION: &str = "version";
    /// `level`.
    pub(crate) const LEVEL: &str = "level";
    /// `compressed_bytes`.
    pub(crate) const COMPRESSED_BYTES: &str = "compressed_bytes";
    /// `compress_median_ms`.
    pub(crate) const COMPRESS_MEDIAN_MS: &str = "compress_median_ms";
    /// `decompress_median_ms`.
    pub(crate) const DECOMPRESS_MEDIAN_MS: &str = "decompress_median_ms";
    /// `encoder_bytes`.
    pub(crate) const ENCODER_BYTES: &str = "encoder_bytes";
    /// `compress_instructions`.
    pub(crate) const COMPRESS_INSTRUCTIONS: &str = "compress_instructions";
    /// `decompress_instructions`.
    pub(crate) const DECOMPRESS_INSTRUCTIONS: &str = "decompress_instructions";
    /// `status`.
    pub(crate) const STATUS: &str = "status";
    /// `failure`.
    pub(crate) const FAILURE: &str = "failure";
    /// `dotnet_level`.
    pub(crate) const DOTNET_LEVEL: &str = "dotnet_level";
    /// `warmup`.
    pub(crate) const WARMUP: &str = "warmup";
    /// `rounds`.
    pub(crate) const ROUNDS: &str = "rounds";
    /// `precision_met`: `yes`, `no` or empty.
    pub(crate) const PRECISION_MET: &str = "precision_met";
    /// Compression's nine statistics: iterations, then median, min, max, mean, standard
    /// deviation, MAD and the 95% interval of the median, in ms.
    pub(crate) const COMPRESS: [&str; 9] = [
        "compress_iterations",
        COMPRESS_MEDIAN_MS,
        "compress_min_ms",
        "compress_max_ms",
        "compress_mean_ms",
        "compress_stddev_ms",
        "compress_mad_ms",
        "compress_ci95_low_ms",
        "compress_ci95_high_ms",
    ];
    /// Decompression's nine statistics, as [`COMPRESS`]'s.
    pub(crate) const DECOMPRESS: [&str; 9] = [
        "decompress_iterations",
        DECOMPRESS_MEDIAN_MS,
        "decompress_min_ms",
        "decompress_max_ms",
        "decompress_mean_ms",
        "decompress_stddev_ms",
        "decompress_mad_ms",
        "decompress_ci95_low_ms",
        "decompress_ci95_high_ms",
    ];
    /// Compression's CPU time: the median and least of the thread's CPU time per
    /// iteration, in ms; empty where it was not measured.
    pub(crate) const COMPRESS_CPU: [&str; 2] = ["compress_cpu_median_ms", "compress_cpu_min_ms"];
    /// Decompression's, as [`COMPRESS_CPU`]'s.
    pub(crate) const DECOMPRESS_CPU: [&str; 2] =
        ["decompress_cpu_median_ms", "decompress_cpu_min_ms"];
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 42] = [
        PAYLOAD,
        INPUT_BYTES,
        CODEC,
        LIBRARY,
        VARIANT,
        VERSION,
        LEVEL,
        DOTNET_LEVEL,
        COMPRESSED_BYTES,
        "ratio",
        "compress_mb_s",
        "decompress_mb_s",
        WARMUP,
        ROUNDS,
        COMPRESS[0],
        COMPRESS[1],
        COMPRESS[2],
        COMPRESS[3],
        COMPRESS[4],
        COMPRESS[5],
        COMPRESS[6],
        COMPRESS[7],
        COMPRESS[8],
        DECOMPRESS[0],
        DECOMPRESS[1],
        DECOMPRESS[2],
        DECOMPRESS[3],
        DECOMPRESS[4],
        DECOMPRESS[5],
        DECOMPRESS[6],
        DECOMPRESS[7],
        DECOMPRESS[8],
        COMPRESS_CPU[0],
        COMPRESS_CPU[1],
        DECOMPRESS_CPU[0],
        DECOMPRESS_CPU[1],
        ENCODER_BYTES,
        COMPRESS_INSTRUCTIONS,
        DECOMPRESS_INSTRUCTIONS,
        PRECISION_MET,
        STATUS,
        FAILURE,
    ];
}

/// `http`'s columns: everything HTTP-specific has the `http_` prefix; `payload` and `input_bytes` mean what they mean in `run`'s.
pub(crate) mod http {
    /// `http_encoding`.
    pub(crate) const HTTP_ENCODING: &str = "http_encoding";
    /// `http_concurrency`.
    pub(crate) const HTTP_CONCURRENCY: &str = "http_concurrency";
    /// `http_bandwidth_mbit`.
    pub(crate) const HTTP_BANDWIDTH_MBIT: &str = "http_bandwidth_mbit";
    /// `http_requests_per_s`.
    pub(crate) const HTTP_REQUESTS_PER_S: &str = "http_requests_per_s";
    /// `http_p50_ms`.
    pub(crate) const HTTP_P50_MS: &str = "http_p50_ms";
    /// `http_wire_bytes`.
    pub(crate) const HTTP_WIRE_BYTES: &str = "http_wire_bytes";
    /// `http_body_bytes`.
    pub(crate) const HTTP_BODY_BYTES: &str = "http_body_bytes";
    /// `http_requests`.
    pub(crate) const HTTP_REQUESTS: &str = "http_requests";
    /// `http_p90_ms`.
    pub(crate) const HTTP_P90_MS: &str = "http_p90_ms";
    /// `http_p99_ms`.
    pub(crate) const HTTP_P99_MS: &str = "http_p99_ms";
    /// `http_server_cpu_ms`.
    pub(crate) const HTTP_SERVER_CPU_MS: &str = "http_server_cpu_ms";
    /// `http_errors`.
    pub(crate) const HTTP_ERRORS: &str = "http_errors";
    /// `http_interrupted`.
    pub(crate) const HTTP_INTERRUPTED: &str = "http_interrupted";
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 16] = [
        super::run::PAYLOAD,
        super::run::INPUT_BYTES,
        HTTP_ENCODING,
        HTTP_CONCURRENCY,
        HTTP_BANDWIDTH_MBIT,
        HTTP_REQUESTS,
        HTTP_REQUESTS_PER_S,
        HTTP_P50_MS,
        HTTP_P90_MS,
        HTTP_P99_MS,
        HTTP_WIRE_BYTES,
        HTTP_BODY_BYTES,
        "http_ratio",
        HTTP_SERVER_CPU_MS,
        HTTP_ERRORS,
        HTTP_INTERRUPTED,
    ];
}

/// `probe`'s columns: one row per URL and `Accept-Encoding`.
pub(crate) mod probe {
    /// `url`.
    pub(crate) const URL: &str = "url";
    /// `identity_bytes`.
    pub(crate) const IDENTITY_BYTES: &str = "identity_bytes";
    /// `accept_encoding`.
    pub(crate) const ACCEPT_ENCODING: &str = "accept_encoding";
    /// `status`.
    pub(crate) const STATUS: &str = "status";
    /// `encoding`.
    pub(crate) const ENCODING: &str = "encoding";
    /// `body_bytes`.
    pub(crate) const BODY_BYTES: &str = "body_bytes";
    /// `wire_bytes`.
    pub(crate) const WIRE_BYTES: &str = "wire_bytes";
    /// `total_p50_ms`.
    pub(crate) const TOTAL_P50_MS: &str = "total_p50_ms";
    /// `failure`.
    pub(crate) const FAILURE: &str = "failure";
    /// `requests`.
    pub(crate) const REQUESTS: &str = "requests";
    /// `vary`.
    pub(crate) const VARY: &str = "vary";
    /// `predicted_level`.
    pub(crate) const PREDICTED_LEVEL: &str = "predicted_level";
    /// `predicted_body_bytes`.
    pub(crate) const PREDICTED_BODY_BYTES: &str = "predicted_body_bytes";
    /// `predicted_compress_ms`.
    pub(crate) const PREDICTED_COMPRESS_MS: &str = "predicted_compress_ms";
    /// `ttfb_p50_ms`.
    pub(crate) const TTFB_P50_MS: &str = "ttfb_p50_ms";
    /// `ttfb_p99_ms`.
    pub(crate) const TTFB_P99_MS: &str = "ttfb_p99_ms";
    /// `total_p99_ms`.
    pub(crate) const TOTAL_P99_MS: &str = "total_p99_ms";
    /// `server_extra_ms`.
    pub(crate) const SERVER_EXTRA_MS: &str = "server_extra_ms";
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 18] = [
        URL,
        IDENTITY_BYTES,
        ACCEPT_ENCODING,
        REQUESTS,
        STATUS,
        ENCODING,
        VARY,
        BODY_BYTES,
        WIRE_BYTES,
        PREDICTED_LEVEL,
        PREDICTED_BODY_BYTES,
        PREDICTED_COMPRESS_MS,
        TTFB_P50_MS,
        TTFB_P99_MS,
        TOTAL_P50_MS,
        TOTAL_P99_MS,
        SERVER_EXTRA_MS,
        FAILURE,
    ];
}

/// Columns of older files, still read.
pub(crate) mod legacy {
    /// Version 1's one identity column, e.g. `libzstd 1.5.7`.
    pub(crate) const IMPLEMENTATION: &str = "implementation";
    /// The round trip's outcome before `status`: `ok` or `failed`.
    pub(crate) const ROUND_TRIP: &str = "round_trip";
}

/// The prefix that tells an `http` file's columns.
pub(crate) const HTTP_PREFIX: &str = "http_";
