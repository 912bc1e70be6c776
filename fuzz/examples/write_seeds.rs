//! Writes the seed corpora in `seeds/<target>/` (committed; rerun after changing an input format):
//! `cargo run --example write_seeds` in this folder (`fuzz/`).
//!
//! - `bijou_decode`: the bytes of every test vector (`testdata/vectors`), valid and invalid;
//! - `bijou_slab`: per format, one slab of its valid vectors, and each invalid vector after a valid record, in
//!   the `SlabInput` layout; one with raw offsets;
//! - `json_encoder`, `ffi_flat`: a few fixed byte patterns (their inputs are `arbitrary` streams).

use std::path::{Path, PathBuf};

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `(format, bytes, valid)` of every vector.
fn vectors(root: &Path) -> Vec<(String, Vec<u8>, bool)> {
    let mut out = Vec::new();
    for (file, hex_column) in [("bijou.csv", 2), ("bijou-invalid.csv", 1)] {
        let text =
            std::fs::read_to_string(root.join("testdata/vectors").join(file)).expect("vectors");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cells: Vec<&str> = line.split(',').collect();
            let valid = file == "bijou.csv" || cells[2].starts_with("ok:");
            out.push((cells[0].to_owned(), hex(cells[hex_column]), valid));
        }
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).expect("seed file");
}

fn slab(flags: u8, records: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![flags, records.len() as u8];
    out.extend(records.iter().map(|r| r.len() as u8));
    for r in records {
        out.extend_from_slice(r);
    }
    out
}

fn flags(format: &str) -> u8 {
    match format {
        "bijou64" => 0,
        "bijou64s" => 1,
        "bijou32" => 2,
        _ => 3,
    }
}

fn main() {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seeds = fuzz.join("seeds");
    let dir = |target: &str| {
        let d = seeds.join(target);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("seed folder");
        d
    };

    let vectors = vectors(fuzz.parent().expect("repository root"));
    let decode = dir("bijou_decode");
    let mut seen = std::collections::BTreeSet::new();
    for (_, bytes, _) in &vectors {
        if seen.insert(bytes.clone()) {
            let name = if bytes.is_empty() {
                "empty".to_owned()
            } else {
                format!("{bytes:02x?}")
            };
            write(&decode, &name.replace([' ', ',', '[', ']'], ""), bytes);
        }
    }

    let slabs = dir("bijou_slab");
    for format in ["bijou64", "bijou64s", "bijou32", "bijou32s"] {
        let valid: Vec<&[u8]> = vectors
            .iter()
            .filter(|(f, _, v)| f == format && *v)
            .map(|(_, b, _)| b.as_slice())
            .take(255)
            .collect();
        write(
            &slabs,
            &format!("{format}-valid"),
            &slab(flags(format), &valid),
        );
        for (i, (_, bytes, _)) in vectors
            .iter()
            .filter(|(f, _, v)| f == format && !*v)
            .enumerate()
        {
            write(
                &slabs,
                &format!("{format}-invalid-{i}"),
                &slab(flags(format), &[&[0x2a], bytes]),
            );
        }
    }
    let mut raw = vec![4, 3];
    for offset in [0u32, 1, 3] {
        raw.extend_from_slice(&offset.to_le_bytes());
    }
    raw.extend_from_slice(&[0x2a, 0xf8, 0x34]);
    write(&slabs, "raw-offsets", &raw);

    for target in ["json_encoder", "ffi_flat"] {
        let d = dir(target);
        write(&d, "zeros", &[0; 64]);
        write(&d, "ones", &[0xff; 64]);
        write(&d, "counter", &(0..=255u8).collect::<Vec<_>>());
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let noise: Vec<u8> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        write(&d, "noise", &noise);
    }
    println!("wrote the seeds under {}", seeds.display());
}
