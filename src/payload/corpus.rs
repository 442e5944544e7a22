//! `real-json`: 15 public JSON files nobody here wrote (API responses, a GeoJSON map,
//! an event catalog, a 3D mesh, feeds, tables; 204 B to 2.2 MB), carried in the binary so
//! that the name works anywhere. `payloads/real-json/SOURCES.md` gives each file's
//! repository, path, commit and license.

use super::body::Payload;

/// The name `--payload` takes, and the folder its files are named under.
pub(crate) const NAME: &str = "real-json";

/// One file of the corpus, as committed.
macro_rules! file {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/payloads/real-json/",
                $name
            )) as &[u8],
        )
    };
}

/// The corpus's files, smallest first.
const FILES: [(&str, &[u8]); 15] = [
    file!("smalldemo.json"),
    file!("demo.json"),
    file!("fruits.json"),
    file!("us-state-capitals.json"),
    file!("countries_with_capitals.json"),
    file!("twitter_api_compact_response.json"),
    file!("google_maps_api_response.json"),
    file!("github_events.json"),
    file!("penguins.json"),
    file!("apache_builds.json"),
    file!("update-center.json"),
    file!("twitter.json"),
    file!("mesh.json"),
    file!("citm_catalog.json"),
    file!("canada.json"),
];

/// The corpus as payloads named `real-json/<file>`, smallest first.
pub(crate) fn payloads() -> Vec<Payload> {
    FILES
        .iter()
        .map(|(name, bytes)| Payload {
            name: format!("{NAME}/{name}"),
            bytes: bytes.to_vec(),
            content_type: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_json_and_they_come_smallest_first() {
        let payloads = payloads();
        for payload in &payloads {
            let parsed = serde_json::from_slice::<serde::de::IgnoredAny>(&payload.bytes);
            assert!(parsed.is_ok(), "{} is not JSON", payload.name);
        }
        let sizes: Vec<usize> = payloads.iter().map(|p| p.bytes.len()).collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        assert_eq!((sizes[0], sizes[14]), (204, 2_251_051));
    }
}
