//! The `streamfusion` binary; see the `streamfusion_cli` crate docs and `rust/cli/README.md`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = streamfusion_cli::cli::Cli::parse();
    match streamfusion_cli::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("streamfusion: error: {error}");
            ExitCode::FAILURE
        }
    }
}
