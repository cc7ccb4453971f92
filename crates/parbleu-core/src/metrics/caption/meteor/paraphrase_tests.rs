//! The table against a naive reading of its records: emitted phrases in record order, forward
//! only; paraphrases both ways, sorted; phrase lengths.

use super::*;
use proptest::prelude::*;

/// The node of a phrase, or [`NONE`].
fn node(t: &Table, phrase: &str) -> u32 {
    phrase.split(' ').fold(0, |n, w| {
        if n == NONE {
            NONE
        } else {
            t.step(n, t.word(w))
        }
    })
}

fn file(records: &[(String, String)]) -> String {
    records
        .iter()
        .map(|(a, b)| format!("0.5\n{a}\n{b}\n"))
        .collect()
}

fn phrase() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&["a", "b", "c", "dd"][..]), 1..4)
        .prop_map(|w| w.join(" "))
}

#[test]
fn emits_in_record_order_forward_only() {
    let recs = [
        ("sun set", "dusk"),
        ("dusk", "sun set"),
        ("sun set", "twilight"),
    ];
    let recs: Vec<_> = recs
        .iter()
        .chain(&[("sun set", "dusk"), ("young boy", "kid")])
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let t = Table::parse(file(&recs).as_bytes()).unwrap();
    let (sunset, dusk, twilight) = (node(&t, "sun set"), node(&t, "dusk"), node(&t, "twilight"));
    assert_eq!(t.emits(sunset), [dusk, twilight, dusk]);
    assert_eq!(t.emits(dusk), [sunset]);
    let (targets, ranks) = t.emits_sorted(sunset);
    assert!(dusk < twilight);
    assert_eq!(
        (targets, ranks),
        (&[dusk, dusk, twilight][..], &[0, 2, 1][..])
    );
    assert!(t.paired(sunset) && t.paired(twilight) && !t.paired(node(&t, "sun")));
    assert!(t.emits(twilight).is_empty() && t.emits(node(&t, "sun")).is_empty());
    assert_eq!(
        (t.phrase_len(sunset), t.phrase_len(dusk), t.phrase_len(0)),
        (2, 1, 0)
    );
    assert_eq!(t.phrase_len(node(&t, "sun")), 1);
    assert_eq!(t.max_len, 2);
}

proptest! {
    #[test]
    fn lists_equal_a_naive_reading(recs in prop::collection::vec((phrase(), phrase()), 0..30)) {
        let parsed = Table::parse(file(&recs).as_bytes()).unwrap();
        let loaded = Table::from_compiled(&parsed.compiled("k"), "k").unwrap();
        for t in [&parsed, &loaded] {
            let longest = recs.iter().flat_map(|(a, b)| [a, b]).map(|p| p.split(' ').count());
            prop_assert_eq!(t.max_len, longest.max().unwrap_or(0));
            for (a, _) in &recs {
                let n = node(t, a);
                let want: Vec<u32> =
                    recs.iter().filter(|(x, _)| x == a).map(|(_, b)| node(t, b)).collect();
                prop_assert_eq!(t.emits(n), &want[..]);
                let mut sorted: Vec<(u32, u32)> = want.iter().copied().zip(0u32..).collect();
                sorted.sort_unstable();
                let (targets, ranks) = t.emits_sorted(n);
                let got: Vec<(u32, u32)> = targets.iter().copied().zip(ranks.iter().copied()).collect();
                prop_assert_eq!(got, sorted);
                prop_assert_eq!(t.phrase_len(n), a.split(' ').count());
                prop_assert!(t.paired(n) && t.paired(node(t, &recs[0].1)));
            }
        }
    }
}

fn table(recs: &[(String, String)]) -> Table {
    Table::parse(file(recs).as_bytes()).unwrap()
}

proptest! {
    #[test]
    fn compiled_tables_load_equal_to_a_fresh_parse(
        recs in prop::collection::vec((phrase(), phrase()), 0..30),
        key in "\\PC{0,12}",
    ) {
        let t = table(&recs);
        let bytes = t.compiled(&key);
        prop_assert_eq!(Table::from_compiled(&bytes, &key).unwrap(), t);
    }

    #[test]
    fn damaged_compiled_tables_are_refused(
        recs in prop::collection::vec((phrase(), phrase()), 0..10),
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = table(&recs).compiled("k");
        let mut flipped = bytes.clone();
        flipped[at.index(bytes.len())] ^= 1 << bit;
        prop_assert!(Table::from_compiled(&flipped, "k").is_err());
        prop_assert!(Table::from_compiled(&bytes[..cut.index(bytes.len())], "k").is_err());
    }
}

#[test]
fn every_single_bit_flip_and_truncation_is_refused_without_a_panic() {
    // Exhaustive over small tables, so no damage depends on the random draw (a short
    // `first_child` array once panicked in `check` before the checksum was compared).
    let tables = [
        vec![("b".to_string(), "a c a".to_string())],
        vec![
            ("a b".to_string(), "c".to_string()),
            ("c".to_string(), "a b".to_string()),
        ],
        vec![
            ("a".to_string(), "a".to_string()),
            ("dd b".to_string(), "b c a".to_string()),
        ],
    ];
    for recs in &tables {
        let bytes = table(recs).compiled("k");
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[at] ^= 1 << bit;
                assert!(
                    Table::from_compiled(&flipped, "k").is_err(),
                    "{recs:?} byte {at} bit {bit}"
                );
            }
            assert!(
                Table::from_compiled(&bytes[..at], "k").is_err(),
                "{recs:?} cut at {at}"
            );
        }
    }
}

#[test]
fn compiled_tables_of_another_key_or_format_are_refused() {
    let recs = [("a b".to_string(), "c".to_string())];
    let bytes = table(&recs).compiled("file 1");
    assert!(Table::from_compiled(&bytes, "file 2").is_err());
    let mut other = bytes.clone();
    other[8] ^= 2;
    let err = Table::from_compiled(&other, "file 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("format"), "{err}");
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(Table::from_compiled(&longer, "file 1").is_err());
    assert!(Table::from_compiled(b"", "file 1").is_err());
}

#[test]
fn a_consistent_but_wrong_body_with_a_valid_checksum_is_refused() {
    // The checks behind the checksum: a table whose lists point outside it.
    let recs = [("a b".to_string(), "c".to_string())];
    let mut t = table(&recs);
    t.emit_sorted[0] = 99;
    assert!(Table::from_compiled(&t.compiled("k"), "k").is_err());
    let mut t = table(&recs);
    t.first_child.swap(0, 1);
    assert!(Table::from_compiled(&t.compiled("k"), "k").is_err());
    let mut t = table(&recs);
    t.emit_rank[0] = 1;
    assert!(Table::from_compiled(&t.compiled("k"), "k").is_err());
}

proptest! {
    #[test]
    fn a_forged_body_with_a_valid_checksum_is_refused_or_harmless(
        recs in prop::collection::vec((phrase(), phrase()), 1..10),
        at in any::<prop::sample::Index>(),
        value in prop_oneof![Just(0u32), Just(1), Just(2), Just(NONE), any::<u32>()],
    ) {
        // Past the header (magic, format, key "k" padded), a u32 replaced and the checksum
        // made right again: loading refuses it, or every lookup stays in bounds.
        let mut bytes = table(&recs).compiled("k");
        let body = 20..bytes.len() - 8;
        let word = body.start + at.index((body.end - body.start) / 4) * 4;
        bytes[word..word + 4].copy_from_slice(&value.to_le_bytes());
        let n = bytes.len() - 8;
        let sum = super::compiled::checksum(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
        if let Ok(t) = Table::from_compiled(&bytes, "k") {
            let nodes = t.node_word.len() as u32;
            for w in ["a", "b", "c", "dd", "x"] {
                let id = t.word(w);
                for n in 0..nodes + 2 {
                    let next = t.step(n, id);
                    let _ = (t.emits(next), t.phrase_len(next), t.paired(next));
                    let _ = (t.emits(n), t.phrase_len(n), t.emits_sorted(n), t.paired(n));
                }
            }
        }
    }
}
