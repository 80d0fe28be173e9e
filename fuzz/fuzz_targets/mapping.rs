//! Fuzz target `mapping`: the check `iriscan::fuzzing::mapping` (its module docs
//! say what must hold) on libFuzzer's inputs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| iriscan::fuzzing::mapping(data));
