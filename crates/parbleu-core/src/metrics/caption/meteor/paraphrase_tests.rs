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
        let t = Table::parse(file(&recs).as_bytes()).unwrap();
        for (a, _) in &recs {
            let n = node(&t, a);
            let want: Vec<u32> =
                recs.iter().filter(|(x, _)| x == a).map(|(_, b)| node(&t, b)).collect();
            prop_assert_eq!(t.emits(n), &want[..]);
            prop_assert_eq!(t.phrase_len(n), a.split(' ').count());
            let mut both: Vec<u32> = recs
                .iter()
                .filter_map(|(x, y)| {
                    if x == a { Some(node(&t, y)) } else if y == a { Some(node(&t, x)) } else { None }
                })
                .collect();
            // A record whose two phrases are equal pairs it with itself twice.
            both.extend(recs.iter().filter(|(x, y)| x == a && y == a).map(|_| n));
            both.sort_unstable();
            prop_assert_eq!(t.paraphrases(n), &both[..]);
        }
    }
}
