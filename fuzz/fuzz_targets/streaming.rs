//! Fuzz target `streaming`: the check `iriscan::fuzzing::streaming` (its module docs
//! say what must hold) on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iriscan::fuzzing::streaming(data));
