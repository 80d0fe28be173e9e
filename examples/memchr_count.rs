//! Whole-process floor for `examples/compare.rs`: reads a file in 64 KiB
//! blocks and counts its `:` bytes with memchr — what any scanner of the
//! file must at least do.

use std::io::Read;

fn main() {
    let path = std::env::args().nth(1).expect("usage: memchr_count FILE");
    let mut file = std::fs::File::open(&path).expect("readable file");
    let mut buf = vec![0u8; 64 * 1024];
    let mut n = 0;
    loop {
        let len = file.read(&mut buf).expect("read");
        if len == 0 {
            break;
        }
        n += memchr::memchr_iter(b':', &buf[..len]).count();
    }
    println!("{n}");
}
