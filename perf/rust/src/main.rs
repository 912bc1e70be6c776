//! The `streamfusion-bench` binary; see the `streamfusion_bench` crate docs and `perf/rust/README.md`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = streamfusion_bench::cli::Cli::parse();
    match streamfusion_bench::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("streamfusion-bench: error: {error}");
            ExitCode::FAILURE
        }
    }
}
