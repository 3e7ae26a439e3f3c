//! Every input saved under `regressions/TARGET/` is run through the check of
//! the fuzz target that found it (`race_fuzz::check`), so that a crash found
//! once stays fixed. Run with `cargo test` in `fuzz/` (stable is enough).

use std::path::Path;

#[test]
fn saved_inputs_pass_their_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut ran = 0;
    for target in race_fuzz::TARGETS {
        let dir = root.join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for file in files {
            if file.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let data = std::fs::read(&file).unwrap();
            eprintln!("{target}: {}", file.display());
            race_fuzz::check(target, &data);
            ran += 1;
        }
    }
    eprintln!("{ran} saved inputs");
}

#[test]
fn the_fixtures_pass_the_record_targets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (dir, target) in [
        ("fixtures/royal-ur", "ur_record"),
        ("fixtures/senet", "senet_record"),
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "txt") {
                race_fuzz::check(target, &std::fs::read(&path).unwrap());
            }
        }
    }
}
