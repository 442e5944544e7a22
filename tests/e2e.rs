//! The end-to-end tests, in one test binary: each file of tests/ is a module of it, so
//! that cargo compiles the shared helpers once and links the crate and its dependencies
//! into one executable instead of 21. Run one file's tests with
//! `cargo test --test e2e processes::`.

mod browser;
mod common;
mod servers;

mod ab;
mod analysis;
mod apache;
mod api;
mod aspnetcore;
mod caddy;
mod compare;
mod express;
mod gate;
mod har;
mod hardening;
mod hostile;
mod http;
mod instructions;
mod lab;
mod layers;
mod limits;
mod nginx;
mod one_answer;
mod outputs;
mod payloads;
mod pipes;
mod probe;
mod probe_gate;
mod processes;
mod report;
mod report_charts;
mod report_first;
mod report_screens;
mod run;
mod serve;
mod spreadsheet;
mod stable;
mod tower_http;
mod workers;
