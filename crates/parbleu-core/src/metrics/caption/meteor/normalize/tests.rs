//! Lines and the words the jar makes of them (`-norm -writeAlignments`, or
//! `edu.cmu.meteor.util.Normalizer en true` then lower case).

use super::*;

fn check(cases: &[(&str, &str)]) {
    let p = parse_prefixes("Mr\nA\nB\nNo #NUMERIC_ONLY#\n");
    for (line, want) in cases {
        assert_eq!(normalize(line, &p).join(" "), *want, "{line:?}");
    }
}

#[test]
fn observed_lines() {
    check(&[
        (
            "Hello, World! It's a \"test\" (really) -- isn't it? Mr. Smith's dog; e.g. U.S.A. 3.14 1,000 $5 50% a/b a-b",
            "hello , world ! it 's a \" test \" ( really ) - isn 't it ? mr. smith 's dog ; eg usa 3.14 1,000 $ 5 50 % a / b a b",
        ),
        ("The cat sat.  A  dog   ran.\tTab here. End...", "the cat sat . a dog ran . tab here . end ..."),
        (
            "5-3 -5 a- -a a--b a - b x---y well-known 1990-2000 A-1 ---",
            "5 3 -5 a- -a a b a - b x--y well known 1990 2000 a 1 --",
        ),
        ("No. 5 no. 5 p.m. Then", "no. 5 no . 5 pm then"),
        ("'Of course it is.'", "' of course it is . '"),
        ("a\u{2013}b 1\u{2013}2 x \u{2013} y at 18\u{2013}20.", "a - b 1 - 2 x - y at 18 - 20 ."),
        (
            "O'Neil rock'n'roll 'quote' goin' 90's ``quoted''",
            "o 'neil rock 'n'roll ' quote ' goin ' 90 's \" quoted \"",
        ),
    ]);
}
