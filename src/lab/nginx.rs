//! nginx in the lab: Debian's nginx with ngx_brotli's filter, one process
//! (`master_process off`), a location per setting on one port.

use std::path::Path;
use std::process::Command;

use super::site::{prefixed, version_of, Endpoint, Plan, Setting};
use crate::vocab::CodecKind;

/// Debian's nginx.
pub(crate) const PROGRAM: &str = "/usr/sbin/nginx";

/// ngx_brotli's filter module as Debian installs it.
const BROTLI_FILTER: &str = "/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so";

/// Why nginx cannot run here, naming the packages; `None` when it can.
pub(crate) fn missing() -> Option<String> {
    (!Path::new(PROGRAM).exists() || !Path::new(BROTLI_FILTER).exists()).then(|| {
        "nginx with ngx_brotli is not installed (Debian: nginx libnginx-mod-http-brotli-filter)"
            .to_string()
    })
}

/// `nginx 1.22.1`, from `nginx -v`.
pub(crate) fn version() -> String {
    version_of(PROGRAM, "-v", "nginx/").map_or("nginx".into(), |v| format!("nginx {v}"))
}

/// nginx's location for one endpoint: its prefix stripped, one encoding on.
fn location(endpoint: &Endpoint) -> String {
    let prefix = &endpoint.prefix;
    let encoding = match endpoint.setting {
        None => "gzip off; brotli off;".to_string(),
        Some(Setting { codec: CodecKind::Brotli, level }) => format!(
            "brotli on; brotli_comp_level {level}; brotli_types application/json; brotli_min_length 0; gzip off;"
        ),
        Some(Setting { level, .. }) => format!(
            "gzip on; gzip_comp_level {level}; gzip_types application/json; gzip_min_length 0; brotli off;"
        ),
    };
    format!("    location {prefix}/ {{ rewrite ^{prefix}(/.*)$ $1 break; {encoding} }}\n")
}

/// The configuration and command for `settings`, serving `root/www` on `port`.
pub(crate) fn plan(root: &Path, port: u16, settings: &[Setting]) -> Plan {
    let endpoints = prefixed(port, settings);
    let locations: String = endpoints.iter().map(location).collect();
    let dir = root.display();
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\n\
         error_log {dir}/error.log;\npid {dir}/nginx.pid;\nload_module {BROTLI_FILTER};\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {dir}/tmp;\n  proxy_temp_path {dir}/tmp;\n  \
         fastcgi_temp_path {dir}/tmp;\n  uwsgi_temp_path {dir}/tmp;\n  scgi_temp_path {dir}/tmp;\n  \
         types {{ application/json json; }}\n  default_type application/octet-stream;\n  \
         server {{\n    listen 127.0.0.1:{port};\n    root {dir}/www;\n{locations}  }}\n}}\n"
    );
    let mut command = Command::new(PROGRAM);
    command
        .arg("-p")
        .arg(root)
        .arg("-c")
        .arg(root.join("nginx.conf"));
    Plan {
        command,
        endpoints,
        ports: vec![port],
        files: vec![("nginx.conf", conf)],
    }
}
