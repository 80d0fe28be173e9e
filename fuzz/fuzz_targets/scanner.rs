//! Fuzz target `scanner`: the check `iriscan::fuzzing::scanner` (its module docs
//! say what must hold) on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iriscan::fuzzing::scanner(data));
