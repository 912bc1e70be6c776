//! Flink mode against a small pinned set of golden records, checked in under `tests/data/flink-goldens/`, so that
//! plain `cargo test` covers Flink mode without Maven, a JDK 25 or the generated corpus.
//!
//! The set is a few hand-written corpus cases (`tests/support/corpus.rs`, [`corpus::hand_written`]) chosen to touch
//! each family of output rules: scalars, float digits, string escapes, decimals, temporal types, nested values and
//! the key/value and upsert layouts. Their golden files are what the real Flink 2.2.1
//! (`JsonRowDataSerializationSchema`, on JDK 25) wrote for them in `scripts/parity.sh`'s run, which rewrites them
//! from its fresh goldens every time (`flink-2.2-jdk25/<case>.records` or `.error`, and `ENV`: the Flink and JDK
//! versions) and says when one changed.
//! The full parity (every hand-written and random case, four Flink/JDK pairs, other Arrow layouts) is
//! `tests/flink_parity.rs`.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/goldens.rs"]
mod goldens;

use std::path::PathBuf;

use goldens::{encode, read_golden, show, Golden};

/// The Flink release the pinned goldens come from (`flink.version` of our encoder).
const FLINK_VERSION: &str = "2.2";

fn pinned_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/flink-goldens")
}

/// The names of the pinned cases: every `<case>.records` / `<case>.error` in the pinned directory.
fn pinned_names() -> Vec<String> {
    let dir = pinned_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let case = name
                .strip_suffix(".records")
                .or_else(|| name.strip_suffix(".error"))?;
            Some(case.to_owned())
        })
        .collect();
    names.sort();
    names
}

#[test]
fn the_pinned_cases_are_hand_written_cases_of_every_family() {
    let names = pinned_names();
    let corpus: Vec<String> = corpus::hand_written().into_iter().map(|c| c.name).collect();
    for name in &names {
        assert!(
            corpus.contains(name),
            "pinned golden {name} has no hand-written case of that name: rename or remove it (scripts/parity.sh)"
        );
    }
    assert!(
        names.len() >= 8,
        "only {} pinned cases in {}",
        names.len(),
        pinned_dir().display()
    );
}

#[test]
fn flink_mode_writes_the_pinned_golden_records_byte_for_byte() {
    let dir = pinned_dir();
    let names = pinned_names();
    let mut failures = Vec::new();
    let mut records = 0;
    for case in corpus::hand_written()
        .into_iter()
        .filter(|c| names.contains(&c.name))
    {
        let golden = read_golden(&dir, &case.name).unwrap_or_else(|e| panic!("{e}"));
        let ours = encode(
            &case.options,
            &[("flink.version", FLINK_VERSION)],
            &case.batches,
        );
        match (golden, ours) {
            (Golden::Records(golden), Ok(ours)) => {
                records += golden.len();
                if golden.len() != ours.len() {
                    failures.push(format!(
                        "{}: Flink wrote {} records, ours {}",
                        case.name,
                        golden.len(),
                        ours.len()
                    ));
                }
                for (row, (g, o)) in golden.iter().zip(&ours).enumerate() {
                    for (what, gb, ob) in [("key", &g.0, &o.0), ("value", &g.1, &o.1)] {
                        if gb != ob {
                            failures.push(format!(
                                "{} row {row} {what}:\n    Flink {}\n    ours  {}",
                                case.name,
                                show(gb.as_deref()),
                                show(ob.as_deref())
                            ));
                        }
                    }
                }
            }
            (Golden::Records(_), Err(error)) => {
                failures.push(format!(
                    "{}: Flink wrote records, ours failed: {error}",
                    case.name
                ));
            }
            (Golden::Error(flink), Ok(_)) => failures.push(format!(
                "{}: Flink refused the case ({flink}), ours wrote records",
                case.name
            )),
            (Golden::Error(_), Err(_)) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences from Flink's pinned goldens:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(records > 0, "no golden record compared");
}
