use super::*;

fn tiny() -> Wordnet {
    let files: FxHashMap<&str, &str> = [
        ("data.adj", "00000001 00 a 02 large 0 big 0 000 | x\n"),
        (
            "index.adj",
            "large a 1 0 1 0 00000001\nbig a 1 0 1 0 00000001\n",
        ),
    ]
    .into_iter()
    .collect();
    Wordnet::from_files(|n| Some(files.get(n).copied().unwrap_or(""))).unwrap()
}

fn words(s: &str) -> Words {
    Words::new(&s.split(' ').collect::<Vec<_>>())
}

#[test]
fn nltk_docstring_and_synonyms() {
    // Values printed by NLTK 3.10.4 with WordNet 3.0.
    let wn = tiny();
    let p = Params::default();
    let h = words("It is a guide to action which ensures that the military always obeys the commands of the party");
    let r = words(
        "It is a guide to action that ensures that the military will forever heed Party commands",
    );
    assert_eq!(meteor(&h, &[r], &wn, p).unwrap(), 0.6944444444444445);
    let h = words("the dogs chased a large cat quickly");
    let r = words("a big cat was chasing by the dog");
    assert_eq!(align(&h, &r, &wn), (5, 4));
    assert_eq!(
        meteor(&h, std::slice::from_ref(&r), &wn, p).unwrap(),
        0.4708860759493671
    );
    let short = words("the dogs chased");
    assert_eq!(meteor(&h, &[r, short], &wn, p).unwrap(), 0.866013071895425);
}

#[test]
fn zero_divisions_and_errors() {
    let wn = tiny();
    let p = Params::default();
    let h = words("a b");
    assert_eq!(meteor(&h, &[Words::new::<&str>(&[])], &wn, p).unwrap(), 0.0);
    assert_eq!(
        meteor(&Words::new::<&str>(&[]), std::slice::from_ref(&h), &wn, p).unwrap(),
        0.0
    );
    assert_eq!(meteor(&h, &[words("c d")], &wn, p).unwrap(), 0.0);
    assert!(meteor(&h, &[], &wn, p).is_err());
    let huge = Params { beta: -2000.0, ..p };
    assert!(meteor(&words("a b c"), &[words("a b d c")], &wn, huge).is_err());
    let r = meteor_batch(&[h.clone(), h], &[vec![words("a b")], vec![]], &wn, p, 2);
    assert!(r.unwrap_err().to_string().contains("segment 1"));
}

#[test]
fn synonym_scan_equals_lookup_by_name() {
    let wn = tiny();
    let pool = ["large", "big", "Big", "larger", "cat", "a", "bigs", "x"];
    let mut state = 12345u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..300 {
        let mut draw = || -> Words {
            let n = next() % 12;
            let t: Vec<&str> = (0..n).map(|_| pool[next() % pool.len()]).collect();
            Words::new(&t)
        };
        let (h, r) = (draw(), draw());
        let scan = align_by(&h, &r, &wn, Some(false));
        let name = align_by(&h, &r, &wn, Some(true));
        assert_eq!(scan, name, "{:?} {:?}", h.words, r.words);
    }
}
