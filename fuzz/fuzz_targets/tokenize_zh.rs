#![no_main]
use libfuzzer_sys::fuzz_target;
use parbleu_core::tokenize::Tokenizer;

fuzz_target!(|data: &[u8]| parbleu_fuzz::check_tokenizer(Tokenizer::Zh, data));
