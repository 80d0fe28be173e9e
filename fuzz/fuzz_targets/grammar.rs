//! Fuzz target `grammar`: the check `iriscan::fuzzing::grammar` (its module docs
//! say what must hold) on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iriscan::fuzzing::grammar(data));
