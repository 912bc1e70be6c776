//! Writes the parity corpus (hand-written + seeded random cases of `tests/support/corpus.rs`) for the Flink
//! golden harness: `DIR/<case>.arrow` (Arrow IPC file format) and `DIR/<case>.properties` per case.
//!
//! `cargo run -p streamfusion-json --example parity_corpus -- DIR` (seed from `PARITY_SEED`, printed).

#[path = "../tests/support/corpus.rs"]
mod corpus;

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use arrow_ipc::writer::FileWriter;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: parity_corpus DIR   (environment: PARITY_SEED)");
        std::process::exit(2);
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let seed = corpus::seed_from_env();
    let cases = corpus::flink_corpus(seed);
    let (mut rows, mut bytes) = (0usize, 0u64);
    for case in &cases {
        let path = dir.join(format!("{}.arrow", case.name));
        let file =
            File::create(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        let schema = corpus::schema_of(case);
        let mut writer =
            FileWriter::try_new(BufWriter::new(file), &schema).expect("IPC file writer");
        for batch in &case.batches {
            writer
                .write(batch)
                .unwrap_or_else(|e| panic!("{}: cannot write a batch: {e}", case.name));
        }
        writer.finish().expect("IPC footer");
        drop(writer);
        std::fs::write(
            dir.join(format!("{}.properties", case.name)),
            corpus::properties_text(&case.options),
        )
        .expect("properties file");
        rows += case.rows();
        bytes += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    }
    println!(
        "wrote {} cases, {rows} rows, {bytes} IPC bytes to {}",
        cases.len(),
        dir.display()
    );
}
