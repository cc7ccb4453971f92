//! No module cycle in the core: every `crate::`, `super::` and `self::` path of each source file
//! (in `use` lines, `use` groups and inline code) names the module it reaches; an edge from
//! `a::x` to `a::y::z` is an edge between the siblings `a::x` and `a::y`, and two siblings that
//! reach each other are a cycle (such as `chrf::extract` <-> `chrf::refs`, or `text` <->
//! `tokenize` through `tokenize::lower`, both broken in issue 26). Test modules count too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Every module of the crate (`lib.rs` is the root, `x/mod.rs` is `x`) with its source.
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<Module, String>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut m = prefix.to_vec();
        if path.is_dir() {
            m.push(name);
            modules(&path, &m, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            if name != "mod" && name != "lib" {
                m.push(name);
            }
            out.insert(m, std::fs::read_to_string(&path).expect("read source"));
        }
    }
}

/// The paths a source names: `crate::a::b`, `super::x`, and each item of `use p::{a, b::c}`.
fn paths(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let at_start = i == 0 || !word(b[i - 1]);
        let root = ["crate", "super", "self"]
            .into_iter()
            .find(|r| b[i..].starts_with(r.as_bytes()) && b[i + r.len()..].starts_with(b"::"));
        let Some(root) = root.filter(|_| at_start) else {
            i += 1;
            continue;
        };
        // `root`, then `::word` as long as there is one.
        let mut j = i + root.len();
        while b[j..].starts_with(b"::") && b.get(j + 2).is_some_and(|&c| word(c)) {
            j += 2;
            while j < b.len() && word(b[j]) {
                j += 1;
            }
        }
        let path = src[i..j].to_owned();
        if b[j..].starts_with(b"::{") {
            let end = src[j..].find('}').map_or(b.len(), |k| j + k);
            for item in src[j + 3..end].split(',') {
                let item = item.trim().split("::").next().unwrap_or("").trim();
                if !item.is_empty() && item != "self" {
                    out.push(format!("{path}::{item}"));
                }
            }
        }
        out.push(path);
        i = j.max(i + 1);
    }
    out
}

/// The longest existing module that `path`, written in module `from`, starts with.
fn resolve(from: &Module, path: &str, all: &BTreeMap<Module, String>) -> Option<Module> {
    let mut segs = path.split("::").peekable();
    let mut full: Module = Vec::new();
    if segs.peek() == Some(&"crate") {
        segs.next();
    } else {
        full = from.clone();
        while let Some(&s) = segs.peek() {
            match s {
                "super" => {
                    full.pop();
                }
                "self" => {}
                _ => break,
            }
            segs.next();
        }
    }
    full.extend(segs.map(str::to_owned));
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| all.contains_key(m))
}

fn cycles(all: &BTreeMap<Module, String>) -> Vec<String> {
    let mut sibling_edges: BTreeSet<(Module, Module)> = BTreeSet::new();
    for (m, src) in all {
        for p in paths(src) {
            let Some(t) = resolve(m, &p, all) else {
                continue;
            };
            let k = m.iter().zip(&t).take_while(|(a, b)| a == b).count();
            if k < m.len() && k < t.len() {
                sibling_edges.insert((m[..=k].to_vec(), t[..=k].to_vec()));
            }
        }
    }
    sibling_edges
        .iter()
        .filter(|(a, b)| a < b && sibling_edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{} <-> {}", a.join("::"), b.join("::")))
        .collect()
}

#[test]
fn no_module_cycle() {
    let mut all = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    modules(&src, &[], &mut all);
    assert!(all.len() > 40, "found only {} modules", all.len());
    assert_eq!(cycles(&all), Vec::<String>::new());
}

#[test]
fn finds_a_cycle() {
    let mk = |m: &[&str], src: &str| (m.iter().map(|s| s.to_string()).collect(), src.to_owned());
    let all: BTreeMap<Module, String> = [
        mk(&[], "pub mod a; pub mod b;"),
        mk(&["a"], "mod x; mod y;"),
        mk(&["a", "x"], "use super::{y::f, z};"),
        mk(&["a", "y"], "fn g() { super::x::h() }"),
        mk(&["b"], "use crate::a::x::h;"),
    ]
    .into_iter()
    .collect();
    assert_eq!(cycles(&all), vec!["a::x <-> a::y".to_owned()]);
}
