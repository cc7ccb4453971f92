//! The fuzz targets' invariants (`fuzz/src/checks.rs`, shared verbatim) under proptest, so
//! `cargo test` checks them on stable without cargo-fuzz, plus a replay of every input the
//! fuzzers ever saved as a regression (`fuzz/regressions/<target>/*`).
//!
//! Long runs use cargo-fuzz: see docs/reliability.md.

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

use parbleu_core::tokenize::Tokenizer;
use proptest::prelude::*;
use std::path::Path;

/// Text that exercises the tokenizers: ASCII punctuation, digits, CJK, combining marks,
/// Unicode spaces and line separators, and any other character.
fn fuzz_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just("\n".to_owned()),
        Just(" ".to_owned()),
        "[a-zA-Z0-9.,;:!?'\"()&<>-]{0,6}",
        "[\u{3000}-\u{303f}\u{4e00}-\u{4e20}\u{ff01}-\u{ff20}]{0,4}",
        "[\u{0300}\u{00a0}\u{2028}\u{2029}\u{0085}\u{000b}\u{000c}\u{001c}\u{200b}\u{feff}]",
        any::<char>().prop_map(String::from),
    ];
    (
        proptest::collection::vec(any::<u8>(), 3),
        proptest::collection::vec(piece, 0..40),
    )
        .prop_map(|(mut opts, pieces)| {
            opts.extend(pieces.concat().into_bytes());
            opts
        })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn tokenizers(data in fuzz_bytes(), raw in proptest::collection::vec(any::<u8>(), 0..64)) {
        for tok in [Tokenizer::None, Tokenizer::T13a, Tokenizer::Intl, Tokenizer::Char, Tokenizer::Zh] {
            checks::check_tokenizer(tok, &data);
            checks::check_tokenizer(tok, &raw);
        }
        checks::check_ter_tokenizer(&data);
        checks::check_ter_tokenizer(&raw);
    }

    #[test]
    fn bleu(data in fuzz_bytes()) {
        checks::check_bleu(&data);
    }

    #[test]
    fn chrf(data in fuzz_bytes()) {
        checks::check_chrf(&data);
    }

    #[test]
    fn ter(data in fuzz_bytes()) {
        checks::check_ter(&data);
    }

    #[test]
    fn options(order in prop_oneof![any::<u64>(), 0u64..110, Just(u64::MAX), Just(1 << 63)],
               data in fuzz_bytes()) {
        let mut bytes = order.to_le_bytes().to_vec();
        bytes.push(1); // the order as drawn
        bytes.extend(data);
        checks::check_options(&bytes);
    }
}

/// Every saved fuzz input (crashes found and fixed, and seeds) still passes its target's check.
#[test]
fn replay_fuzz_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return; // a packaged crate without the fuzz directory
    };
    let mut replayed = 0;
    for dir in dirs {
        let dir = dir.unwrap().path();
        let target = dir.file_name().unwrap().to_string_lossy().into_owned();
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            match target.as_str() {
                "tokenize_none" => checks::check_tokenizer(Tokenizer::None, &data),
                "tokenize_13a" => checks::check_tokenizer(Tokenizer::T13a, &data),
                "tokenize_intl" => checks::check_tokenizer(Tokenizer::Intl, &data),
                "tokenize_char" => checks::check_tokenizer(Tokenizer::Char, &data),
                "tokenize_zh" => checks::check_tokenizer(Tokenizer::Zh, &data),
                "tokenize_ter" => checks::check_ter_tokenizer(&data),
                "bleu" => checks::check_bleu(&data),
                "chrf" => checks::check_chrf(&data),
                "ter" => checks::check_ter(&data),
                "options" => checks::check_options(&data),
                other => panic!("unknown fuzz target directory {other}"),
            }
            replayed += 1;
        }
    }
    assert!(
        replayed > 0,
        "no regression inputs under {}",
        root.display()
    );
}
