//! A one-line description of the machine a run measured, for reports and results/.

/// CPU model, logical cores, OS and architecture, e.g.
/// `AMD EPYC 7B13, 2 cores, linux x86_64`.
pub fn describe() -> String {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!(
        "{}, {cores} cores, {} {}",
        cpu_model().unwrap_or_else(|| "unknown CPU".to_string()),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The CPU model from /proc/cpuinfo (Linux); `None` elsewhere.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|line| line.starts_with("model name") || line.starts_with("Model"))
        .and_then(|line| line.split_once(':'))
        .map(|(_, model)| model.split_whitespace().collect::<Vec<_>>().join(" "))
}
