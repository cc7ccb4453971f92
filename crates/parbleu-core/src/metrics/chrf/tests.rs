use super::hyp::{Mode, FORCE_MODE};
use super::*;
use crate::text::{py_is_space, py_lower};
use std::collections::HashMap;

fn cfg(nc: usize, nw: usize, beta: f64, lc: bool, ws: bool, eps: bool) -> ChrfExtract {
    ChrfExtract {
        score: ChrfScoreOpts::new(nc, nw, beta, eps),
        lowercase: lc,
        whitespace: ws,
    }
}

/// The definition, with Counters of owned strings (SacreBLEU's helpers).
fn naive_triples(h: &[String], r: &[String], max_order: usize, joiner: &str) -> Vec<i64> {
    let grams = |t: &[String], n: usize| {
        let mut m: HashMap<String, i64> = HashMap::new();
        if t.len() >= n {
            for i in 0..=(t.len() - n) {
                *m.entry(t[i..i + n].join(joiner)).or_default() += 1;
            }
        }
        m
    };
    let mut out = Vec::new();
    for n in 1..=max_order {
        let (hg, rg) = (grams(h, n), grams(r, n));
        let mut m = 0;
        let mut hc = 0;
        for (g, c) in &hg {
            hc += c;
            if let Some(rc) = rg.get(g) {
                m += (*c).min(*rc);
            }
        }
        out.extend([if rg.is_empty() { 0 } else { hc }, rg.values().sum(), m]);
    }
    out
}

fn naive_row(c: &ChrfExtract, hyp: &str, refs: &[&str]) -> Vec<i64> {
    let prep = |s: &str| {
        let t = if c.lowercase {
            py_lower(s)
        } else {
            s.to_string()
        };
        let chars: Vec<String> = t
            .chars()
            .filter(|&ch| c.whitespace || !py_is_space(ch))
            .map(|ch| ch.to_string())
            .collect();
        let words: Vec<String> = remove_punctuation(&t)
            .into_iter()
            .map(String::from)
            .collect();
        (chars, words)
    };
    let (hc, hw) = prep(hyp);
    let mut best = -1.0;
    let mut best_row = vec![];
    for r in refs {
        let (rc, rw) = prep(r);
        let mut row = naive_triples(&hc, &rc, c.score.char_order, "");
        row.extend(naive_triples(&hw, &rw, c.score.word_order, " "));
        let f = f_score(&row, &c.score);
        if f > best {
            best = f;
            best_row = row;
        }
    }
    best_row
}

fn row(c: &ChrfExtract, hyp: &str, refs: &[&str]) -> Vec<i64> {
    let prepared = PreparedRefs::new(c, vec![refs.to_vec()], 1);
    extract(c, &[hyp.to_string()], &prepared, 1).unwrap()
}

#[test]
fn punctuation_split_follows_sacrebleu() {
    assert_eq!(
        remove_punctuation("(hi) a . x! ,y ok"),
        vec!["(hi", ")", "a", ".", "x", "!", ",", "y", "ok"]
    );
    assert_eq!(remove_punctuation("é! ¿q"), vec!["é", "!", "¿q"]);
    assert_eq!(remove_punctuation("..."), vec!["..", "."]);
}

#[test]
fn identical_scores_100() {
    let c = cfg(6, 2, 2.0, false, false, false);
    let r = row(&c, "The cat sat.", &["The cat sat."]);
    assert_eq!(r, naive_row(&c, "The cat sat.", &["The cat sat."]));
    assert!((f_score(&r, &c.score) - 100.0).abs() < 1e-12);
}

#[test]
fn empty_hypothesis_and_reference() {
    let c = cfg(6, 2, 2.0, false, false, false);
    assert_eq!(row(&c, "", &["a b"]), naive_row(&c, "", &["a b"]));
    assert_eq!(row(&c, "a b", &[""]), vec![0; 24]);
    assert_eq!(f_score(&[0; 24], &c.score), 0.0);
}

#[test]
fn best_reference_ties_go_to_first() {
    // Unigrams, beta 1: "a" gives P=0.5 R=1, "abxx" gives P=1 R=0.5: equal F, other rows.
    let c = cfg(1, 0, 1.0, false, false, false);
    assert_eq!(row(&c, "ab", &["a", "abxx"]), vec![2, 1, 1]);
    assert_eq!(row(&c, "ab", &["abxx", "a"]), vec![2, 4, 2]);
    // A strictly better later reference wins.
    assert_eq!(row(&c, "ab", &["x", "ab"]), vec![2, 2, 2]);
}

/// A 70,000-piece segment of a few repeated words: its counts no longer fit in u16.
fn long_segment() -> String {
    (0..70_000)
        .map(|i| ["ab", "b a", "c", "ab."][i % 4])
        .collect()
}

#[test]
fn long_segments_use_wide_slots() {
    let c = cfg(6, 2, 2.0, false, false, false);
    let hyp = long_segment();
    let rf: String = (0..9_000).map(|i| ["ab", "c", "a b"][i % 3]).collect();
    assert_eq!(row(&c, &hyp, &[&rf]), naive_row(&c, &hyp, &[&rf]));
    // Reference counts beyond u16 (they saturate once past the hypothesis count).
    let hyp = "a".repeat(10);
    let rf = "a".repeat(70_000);
    let r = row(&c, &hyp, &[&rf]);
    assert_eq!(&r[..3], &[10, 70_000, 10]);
    assert_eq!(r, naive_row(&c, &hyp, &[&rf]));
}

#[test]
fn many_distinct_symbols() {
    // Thousands of distinct characters (dense ids, key packing).
    let c = cfg(6, 0, 2.0, false, true, false);
    let hyp: String = (0..6_000u32)
        .filter_map(|i| char::from_u32(0x4e00 + (i * 7) % 5_000))
        .collect();
    let rf: String = (0..6_000u32)
        .filter_map(|i| char::from_u32(0x4e00 + (i * 11) % 5_000))
        .collect();
    assert_eq!(
        row(&c, &hyp, &[&rf, &hyp]),
        naive_row(&c, &hyp, &[&rf, &hyp])
    );
}

#[test]
fn many_distinct_short_words() {
    // More distinct words than the word table first expects (it grows), and a long
    // repetitive segment (packed keys, table grown to its distinct n-grams).
    let c = cfg(6, 2, 2.0, false, false, false);
    let hyp: String = (0..3_000).map(|i| format!("{} ", i % 1_500)).collect();
    let rf: String = (0..2_000)
        .map(|i| format!("{} ", (i * 7) % 1_700))
        .collect();
    assert_eq!(row(&c, &hyp, &[&rf]), naive_row(&c, &hyp, &[&rf]));
    let hyp = "the cat sat on the mat . ".repeat(4_000);
    let rf = hyp.replace("mat", "hat");
    assert_eq!(row(&c, &hyp, &[&rf, "x"]), naive_row(&c, &hyp, &[&rf, "x"]));
}

#[test]
fn scratch_is_reset_between_segments() {
    let c = cfg(4, 2, 2.0, true, false, false);
    let hyps: Vec<String> = ["a b c d", "", "x", "Ab cd. ab", "éé é", "a b c d"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let refs: Vec<Vec<String>> = ["a b", "q", "", "ab cd", "é", "d c b a"]
        .iter()
        .map(|s| vec![s.to_string()])
        .collect();
    let p = PreparedRefs::new(&c, refs.clone(), 1);
    let rows = extract(&c, &hyps, &p, 1).unwrap();
    for (i, h) in hyps.iter().enumerate() {
        let r: Vec<&str> = refs[i].iter().map(String::as_str).collect();
        assert_eq!(
            &rows[i * c.width()..(i + 1) * c.width()],
            naive_row(&c, h, &r).as_slice()
        );
    }
}

#[test]
fn f_score_matches_python_values() {
    // Values printed by SacreBLEU 2.6 (CHRF()._compute_f_score).
    let o = ChrfScoreOpts::new(6, 0, 2.0, false);
    let stats = [
        98, 105, 84, 97, 104, 59, 96, 103, 48, 95, 102, 42, 94, 101, 36, 93, 100, 31,
    ];
    assert_eq!(f_score(&stats, &o), 49.19405977395072);
}

proptest::proptest! {
    #[test]
    fn prop_words_and_shared_refs_agree_with_definition(
        hyps in proptest::collection::vec("([aé猫Ab .!(,]|xxxxxxxxxxxxxxxxxxxx){0,12}", 1..4),
        pool in proptest::collection::vec("([aé猫Ab .!),\t]|xxxxxxxxxxxxxxxxxxxx){0,12}", 1..4),
        picks in proptest::collection::vec(0usize..16, 1..12),
        nc in 0usize..7,
        nw in 0usize..4,
        lc in proptest::bool::ANY,
        ws in proptest::bool::ANY,
    ) {
        proptest::prop_assume!(nc + nw > 0);
        let c = cfg(nc, nw, 2.0, lc, ws, false);
        // Segment i's references: pool texts picked (with repeats) from `picks`.
        let n = hyps.len();
        let texts: Vec<&str> = pool.iter().map(String::as_str).collect();
        let mut starts = vec![0];
        let mut items = Vec::new();
        for i in 0..n {
            let k = 1 + picks[i % picks.len()] % 3;
            for j in 0..k {
                items.push(((picks[(i + j) % picks.len()] + j) % texts.len()) as u32);
            }
            starts.push(items.len());
        }
        let set = crate::refset::RefSet::from_indices(&texts, &starts, &items);
        let p = PreparedRefs::from_set(&c, set, 1);
        let rows = extract(&c, &hyps, &p, 1).unwrap();
        let scores = sentence_scores_block(&c, &hyps, &p, 0, 1).unwrap();
        for i in 0..n {
            let refs: Vec<&str> =
                items[starts[i]..starts[i + 1]].iter().map(|&j| texts[j as usize]).collect();
            let want = naive_row(&c, &hyps[i], &refs);
            proptest::prop_assert_eq!(&rows[i * c.width()..(i + 1) * c.width()], want.as_slice());
            proptest::prop_assert_eq!(scores[i].to_bits(), f_score(&want, &c.score).to_bits());
        }
    }
}

proptest::proptest! {
    #[test]
    fn prop_agrees_with_definition(
        hyp in "[abc .,!(]{0,14}",
        refs in proptest::collection::vec("[abcA .,!)]{0,14}", 1..4),
        nc in 0usize..5,
        nw in 0usize..3,
        lc in proptest::bool::ANY,
        ws in proptest::bool::ANY,
        eps in proptest::bool::ANY,
        beta in 0u8..4,
        mode in 0usize..4,
    ) {
        proptest::prop_assume!(nc + nw > 0);
        let c = cfg(nc, nw, f64::from(beta), lc, ws, eps);
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let mode = [Mode::Packed, Mode::Direct, Mode::Small, Mode::Large][mode];
        FORCE_MODE.with(|f| f.set(Some(mode)));
        let got = row(&c, &hyp, &refs);
        FORCE_MODE.with(|f| f.set(None));
        proptest::prop_assert_eq!(got, naive_row(&c, &hyp, &refs));
    }
}

/// `extract_many`'s rows of system k, segment i.
fn many_row<'a>(rows: &'a [i64], c: &ChrfExtract, n: usize, k: usize, i: usize) -> &'a [i64] {
    let w = c.width();
    &rows[(k * n + i) * w..(k * n + i + 1) * w]
}

#[test]
fn many_systems_long_and_repetitive_segments() {
    // Wide slots, packed keys and a reference far longer than the hypotheses (and the
    // reverse): the reference's tables are probed by every system.
    let c = cfg(6, 2, 2.0, false, false, false);
    let long = long_segment();
    let rep = "the cat sat on the mat . ".repeat(4_000);
    let sys: Vec<Vec<String>> = vec![
        vec![long.clone(), "a".repeat(10), rep.replace("mat", "hat")],
        vec!["ab c".into(), "a".repeat(70_000), rep.clone()],
        vec![String::new(), "b".into(), "x".into()],
    ];
    let refs = vec![
        vec!["ab c a b".repeat(1_000)],
        vec!["a".repeat(70_000), "aaa".into()],
        vec![rep.clone(), "x".into()],
    ];
    let p = PreparedRefs::new(&c, refs, 1);
    let slices: Vec<&[String]> = sys.iter().map(Vec::as_slice).collect();
    let rows = extract_many(&c, &slices, &p, 0, 1).unwrap();
    for (k, hyps) in sys.iter().enumerate() {
        let one = extract(&c, hyps, &p, 1).unwrap();
        for i in 0..hyps.len() {
            assert_eq!(
                many_row(&rows, &c, 3, k, i),
                &one[i * c.width()..(i + 1) * c.width()]
            );
        }
    }
}

#[test]
fn many_systems_errors_and_empty() {
    let c = cfg(6, 0, 2.0, false, false, false);
    let p = PreparedRefs::new(&c, vec![vec!["a"], vec!["b"]], 1);
    let (a, b) = (vec!["a", "b"], vec!["a"]);
    assert!(extract_many(&c, &[&a[..], &b[..]], &p, 0, 1).is_err());
    assert!(extract_many(&c, &[&a[..]], &p, 1, 1).is_err());
    assert_eq!(extract_many::<&str>(&c, &[], &p, 0, 1).unwrap(), vec![]);
    assert_eq!(
        extract_many(&c, &[&b[..]], &p, 1, 1).unwrap(),
        vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
}

proptest::proptest! {
    #[test]
    fn prop_many_systems_equal_one_at_a_time(
        segs in proptest::collection::vec(
            (proptest::collection::vec("([aé猫Ab .!(,]|xxxxxxxx){0,10}", 3),
             proptest::collection::vec("([aé猫Ab .!),\t]|xxxxxxxx){0,10}", 1..3)),
            1..40),
        n_sys in 1usize..4,
        nc in 0usize..7,
        nw in 0usize..4,
        lc in proptest::bool::ANY,
        ws in proptest::bool::ANY,
        eps in proptest::bool::ANY,
        mode in 0usize..5,
    ) {
        proptest::prop_assume!(nc + nw > 0);
        let c = cfg(nc, nw, 2.0, lc, ws, eps);
        let n = segs.len();
        let sys: Vec<Vec<String>> =
            (0..n_sys).map(|k| segs.iter().map(|(h, _)| h[k].clone()).collect()).collect();
        let p = PreparedRefs::new(&c, segs.iter().map(|(_, r)| r.clone()).collect(), 1);
        let slices: Vec<&[String]> = sys.iter().map(Vec::as_slice).collect();
        // Mode 4: tables chosen as usual, two threads (the forced mode is per thread).
        let forced = [Mode::Packed, Mode::Direct, Mode::Small, Mode::Large].get(mode).copied();
        FORCE_MODE.with(|f| f.set(forced));
        let rows = extract_many(&c, &slices, &p, 0, if forced.is_some() { 1 } else { 2 });
        FORCE_MODE.with(|f| f.set(None));
        let rows = rows.unwrap();
        proptest::prop_assert_eq!(rows.len(), n_sys * n * c.width());
        for (k, hyps) in sys.iter().enumerate() {
            let one = extract(&c, hyps, &p, 1).unwrap();
            for (i, (_, refs)) in segs.iter().enumerate() {
                let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
                let want = naive_row(&c, &hyps[i], &refs);
                proptest::prop_assert_eq!(&one[i * c.width()..(i + 1) * c.width()], want.as_slice());
                proptest::prop_assert_eq!(many_row(&rows, &c, n, k, i), want.as_slice());
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn prop_char_symbols_are_the_characters(
        text in "([a \\t\\x1c\\x1f\\x7f\\u{85}\\u{a0}\\u{1680}\\u{2000}-\\u{200b}\\u{2028}\\u{3000}é猫🙂]|\\PC){0,24}",
        ws in proptest::bool::ANY,
    ) {
        let mut got = Vec::new();
        super::symbols::char_symbols(&text, ws, &mut got);
        let want: Vec<u32> =
            text.chars().filter(|&c| ws || !py_is_space(c)).map(u32::from).collect();
        proptest::prop_assert_eq!(got, want);
    }
}
