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
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 38] = [
        PAYLOAD,
        INPUT_BYTES,
        CODEC,
        LIBRARY,
        VARIANT,
        VERSION,
        LEVEL,
        "dotnet_level",
        COMPRESSED_BYTES,
        "ratio",
        "compress_mb_s",
        "decompress_mb_s",
        "warmup",
        "rounds",
        "compress_iterations",
        COMPRESS_MEDIAN_MS,
        "compress_min_ms",
        "compress_max_ms",
        "compress_mean_ms",
        "compress_stddev_ms",
        "compress_mad_ms",
        "compress_ci95_low_ms",
        "compress_ci95_high_ms",
        "decompress_iterations",
        DECOMPRESS_MEDIAN_MS,
        "decompress_min_ms",
        "decompress_max_ms",
        "decompress_mean_ms",
        "decompress_stddev_ms",
        "decompress_mad_ms",
        "decompress_ci95_low_ms",
        "decompress_ci95_high_ms",
        ENCODER_BYTES,
        COMPRESS_INSTRUCTIONS,
        DECOMPRESS_INSTRUCTIONS,
        "precision_met",
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
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 16] = [
        super::run::PAYLOAD,
        super::run::INPUT_BYTES,
        HTTP_ENCODING,
        HTTP_CONCURRENCY,
        HTTP_BANDWIDTH_MBIT,
        "http_requests",
        HTTP_REQUESTS_PER_S,
        HTTP_P50_MS,
        "http_p90_ms",
        "http_p99_ms",
        HTTP_WIRE_BYTES,
        HTTP_BODY_BYTES,
        "http_ratio",
        "http_server_cpu_ms",
        "http_errors",
        "http_interrupted",
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
    /// Every column, in the order the files have them.
    pub(crate) const ALL: [&str; 18] = [
        URL,
        IDENTITY_BYTES,
        ACCEPT_ENCODING,
        "requests",
        STATUS,
        ENCODING,
        "vary",
        BODY_BYTES,
        WIRE_BYTES,
        "predicted_level",
        "predicted_body_bytes",
        "predicted_compress_ms",
        "ttfb_p50_ms",
        "ttfb_p99_ms",
        TOTAL_P50_MS,
        "total_p99_ms",
        "server_extra_ms",
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
