//! COCO's caption metrics as pycocoevalcap 1.2 computes them: CIDEr-D ([`cider`]) and ROUGE-L
//! with β = 1.2 ([`rouge`]). Both reproduce the original's float operations in its order (dicts
//! iterated in insertion order, i.e. n-grams in first-occurrence order), so the per-image
//! numbers are the same bits; the final numpy means stay in Python, done by numpy itself.

pub mod cider;
pub mod meteor;
pub mod rouge;
