//! The workspace README's library example names every crate it uses in
//! its `[dependencies]` (the example itself is a doctest of this crate,
//! built with warnings denied: see `WorkspaceReadme` in `lib.rs`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::collections::BTreeSet;

/// The lines of the first code block of `lang` after `heading`.
fn block<'a>(text: &'a str, heading: &str, lang: &str) -> Vec<&'a str> {
    let from = text.find(heading).expect("the heading");
    text[from..]
        .lines()
        .skip_while(|l| *l != format!("```{lang}"))
        .skip(1)
        .take_while(|l| *l != "```")
        .collect()
}

#[test]
fn the_library_example_names_every_crate_it_uses() {
    let readme = include_str!("../../../README.md");
    let named: BTreeSet<String> = block(readme, "## As a library", "toml")
        .iter()
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| name.trim().to_owned()))
        .filter(|name| !name.starts_with('['))
        .collect();
    let used: BTreeSet<String> = block(readme, "## As a library", "rust")
        .iter()
        .filter_map(|l| l.strip_prefix("use "))
        .filter_map(|path| {
            path.split_once("::")
                .map(|(root, _)| root.replace('_', "-"))
        })
        .filter(|root| root != "std")
        .collect();
    assert!(!used.is_empty(), "no use lines found");
    assert_eq!(
        named, used,
        "the [dependencies] and the crates the code uses"
    );
    // Each names a crate of this workspace by path.
    for name in &named {
        let manifest = format!("{}/../{name}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
        assert!(
            std::path::Path::new(&manifest).exists(),
            "{name}: no such crate"
        );
    }
}
