//! Version 1 files, written before cells had a typed identity: each cell named its
//! library, variant and version in one `implementation` string (`libzstd 1.5.7`,
//! `libzstd(reused) 1.5.7`, `libzstd+dict4KiB 1.5.7`) and a failure only by its reason.
//! They are read once, here, into version 2's fields; nothing else reads those strings.

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::vocab::{Library, Variant};

/// Rewrites a version 1 JSON document into version 2 in place.
pub(super) fn upgrade_v1(document: &mut Value) -> Result<()> {
    document["schema_version"] = Value::from(super::run::SCHEMA_VERSION);
    let Some(payloads) = document.get_mut("payloads").and_then(Value::as_array_mut) else {
        return Ok(()); // serde names what is missing
    };
    for payload in payloads {
        let Some(cells) = payload.get_mut("cells").and_then(Value::as_array_mut) else {
            continue;
        };
        for cell in cells {
            upgrade_cell(cell)?;
        }
    }
    Ok(())
}

fn upgrade_cell(cell: &mut Value) -> Result<()> {
    let Some(object) = cell.as_object_mut() else {
        bail!("a cell is not an object");
    };
    let implementation = object
        .remove("implementation")
        .and_then(|v| v.as_str().map(str::to_string))
        .context("a cell has no implementation")?;
    let (library, variant, version) = parse_implementation(&implementation)?;
    object.insert("library".into(), serde_json::to_value(library)?);
    object.insert("variant".into(), serde_json::to_value(variant)?);
    object.insert("version".into(), Value::from(version));
    let failed = object.get("failure").is_some_and(|f| !f.is_null());
    let status = if failed { "failed" } else { "ok" };
    object.insert("status".into(), Value::from(status));
    Ok(())
}

/// Reads a version 1 `implementation` string.
pub(super) fn parse_implementation(text: &str) -> Result<(Library, Variant, String)> {
    let (name, version) = text
        .split_once(' ')
        .with_context(|| format!("implementation '{text}' has no version"))?;
    let (library, variant) = if let Some(library) = name.strip_suffix("(reused)") {
        (library, Variant::Reused)
    } else if let Some((library, size)) = name.split_once("+dict") {
        let kib = size
            .strip_suffix("KiB")
            .and_then(|kib| kib.parse().ok())
            .with_context(|| format!("implementation '{text}': dictionary size '{size}'"))?;
        (library, Variant::Dictionary { kib })
    } else {
        (name, Variant::Fresh)
    };
    let library = library
        .parse::<Library>()
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("implementation '{text}'"))?;
    Ok((library, variant, version.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_1_implementations_read_as_typed_identities() {
        let cases = [
            ("libzstd 1.5.7", Library::Libzstd, Variant::Fresh),
            ("libzstd(reused) 1.5.7", Library::Libzstd, Variant::Reused),
            ("zlib-rs(reused) 0.5.2", Library::ZlibRs, Variant::Reused),
            (
                "libzstd+dict4KiB 1.5.7",
                Library::Libzstd,
                Variant::Dictionary { kib: 4 },
            ),
            ("brotli-rs 8.0.2", Library::BrotliRs, Variant::Fresh),
        ];
        for (text, library, variant) in cases {
            let (l, v, _) = parse_implementation(text).unwrap();
            assert_eq!((l, v), (library, variant), "{text}");
        }
        for bad in ["libzstd", "lz4 1.9", "libzstd+dictbig 1"] {
            assert!(parse_implementation(bad).is_err(), "{bad}");
        }
    }
}
