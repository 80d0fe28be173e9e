//! Inputs scanned side by side on the pool, printed in the order given.
//!
//! A directory holds many small inputs, each too small to split across
//! threads: the threads scan different inputs instead (one thread each),
//! while this thread walks on and prints what is scanned, in walk order.
//! What printing an input would do — its hits, its end, its messages for
//! standard error — is recorded by the thread that scans it ([`Recorder`],
//! messages held by [`crate::progress::Held`]) and replayed here at the
//! input's turn ([`replay`]), so that the output is byte for byte the
//! output of one thread: the same hits, the same messages, in the same
//! order.
//!
//! The inputs in flight form a window ([`Window`]): the walk runs ahead of
//! the printing by at most so many inputs and bytes, so memory holds a
//! window of inputs, never the tree, and no input waits for a batch to
//! fill or to drain; the window is wide (hundreds of inputs) so that while
//! one long scan runs — a large HTML page, read whole on one thread — the
//! other threads go on with the inputs after it. Scanned at its turn by
//! this thread instead, streamed on all threads (the scans in flight run
//! on beside it): standard input, a FIFO, a file above [`SMALL_FILE`]
//! (but an HTML page of any size: its reader takes no help), a mail or
//! WARC input when the output may stop early (`-m`, `-l`, `-q`: what its
//! reader says after the stop is not reported), and an input alone.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use iriscan::Counts;

use crate::output::{HitPrinter, Rendered};
use crate::progress::{self, Held};
use crate::stats::Stats;
use crate::walk::{Input, WalkError};

/// Files smaller than this are scanned whole, each on one thread, several
/// at a time; larger ones are streamed, in pieces on all threads.
pub const SMALL_FILE: u64 = 8 << 20;

/// Compressed files (`-z`) smaller than this are scanned whole on one
/// thread; their size does not say what they hold, and what they hold is
/// kept until their turn.
pub const SMALL_COMPRESSED_FILE: u64 = 1 << 20;

/// Where a scan hands what it found: the printer itself, or a record of
/// what to print later.
pub trait Emit {
    /// A hit, rendered; says whether the input's scan should go on.
    fn emit(&mut self, path: &[u8], rendered: Rendered) -> io::Result<bool>;
    /// Hits counted without being made (`--count`:
    /// [`HitPrinter::counts_only`]).
    fn counts(&mut self, counts: &Counts);
    /// The input `path` was scanned (its count is printed with `--count`).
    fn end_input(&mut self, path: &[u8]) -> io::Result<()>;
    /// An input was scanned, `bytes` read (for `--stats`).
    fn scanned(&mut self, bytes: u64);
}

/// Printing as the scan goes: the printer, and the run's figures.
pub struct Direct<'a, W: Write> {
    pub printer: &'a mut HitPrinter<W>,
    pub stats: &'a mut Stats,
}

impl<W: Write> Emit for Direct<'_, W> {
    fn emit(&mut self, path: &[u8], rendered: Rendered) -> io::Result<bool> {
        self.printer.emit(path, rendered)
    }

    fn counts(&mut self, counts: &Counts) {
        self.printer.add_counts(counts);
    }

    fn end_input(&mut self, path: &[u8]) -> io::Result<()> {
        self.printer.end_input(path)
    }

    fn scanned(&mut self, bytes: u64) {
        self.stats.inputs += 1;
        self.stats.bytes += bytes;
    }
}

/// One thing printing an input does, recorded.
pub enum Event {
    Hit(Rendered),
    /// [`Emit::counts`].
    Counts(Counts),
    /// Lines for standard error, whole.
    Messages(Vec<u8>),
    /// [`Emit::scanned`].
    Scanned(u64),
    /// [`Emit::end_input`].
    End,
}

/// Records what printing an input would do, on the thread that scans it:
/// its hits and, in their place between them, the messages the scan
/// writes on this thread (held while the recorder lives).
pub struct Recorder {
    events: Vec<Event>,
    held: Held,
}

impl Recorder {
    /// Starts recording (and holding this thread's messages).
    pub fn start() -> Recorder {
        Recorder {
            events: Vec::new(),
            held: Held::start(),
        }
    }

    /// The messages written since the last event, in their place.
    fn messages(&mut self) {
        let held = self.held.take();
        if !held.is_empty() {
            self.events.push(Event::Messages(held));
        }
    }

    /// What was recorded (messages held are written again from here on).
    pub fn finish(mut self) -> Vec<Event> {
        self.messages();
        self.events
    }
}

impl Emit for Recorder {
    fn emit(&mut self, _path: &[u8], rendered: Rendered) -> io::Result<bool> {
        self.messages();
        self.events.push(Event::Hit(rendered));
        // Whether the printer wants more is known at the input's turn: a
        // scan recorded goes to its end.
        Ok(true)
    }

    fn counts(&mut self, counts: &Counts) {
        self.messages();
        self.events.push(Event::Counts(*counts));
    }

    fn end_input(&mut self, _path: &[u8]) -> io::Result<()> {
        self.messages();
        self.events.push(Event::End);
        Ok(())
    }

    fn scanned(&mut self, bytes: u64) {
        self.messages();
        self.events.push(Event::Scanned(bytes));
    }
}

/// Prints what was recorded for the input `path`, as the scan would have
/// printed it: once the printer wants no more of the input's hits
/// (`-m`, `-l`), the rest are dropped, as its scan would have stopped;
/// its messages still come.
pub fn replay<W: Write>(
    events: Vec<Event>,
    path: &[u8],
    printer: &mut HitPrinter<W>,
    stats: &mut Stats,
) -> io::Result<()> {
    let mut more = true;
    for event in events {
        match event {
            Event::Hit(rendered) => {
                if more {
                    more = printer.emit(path, rendered)?;
                }
            }
            // Counting is never stopped early (`-m` makes hits).
            Event::Counts(counts) => printer.add_counts(&counts),
            Event::Messages(text) => {
                let _ = progress::message().write_all(&text);
            }
            Event::Scanned(bytes) => {
                stats.inputs += 1;
                stats.bytes += bytes;
            }
            Event::End => printer.end_input(path)?,
        }
    }
    Ok(())
}

/// How the scan of an input on the pool came out.
pub enum Outcome {
    /// Scanned, and recorded; whether the input failed (reported in the
    /// record).
    Recorded {
        events: Vec<Event>,
        failed: io::Result<bool>,
    },
    /// Not small: to be scanned at its turn, streamed.
    AtItsTurn,
}

/// An input of the walk, waiting for its turn to be printed.
pub enum Pending {
    /// Being scanned on the pool: the input and its outcome come back.
    OnPool(Receiver<(Input, Outcome)>),
    /// To be scanned at its turn (not small, or nothing to gain).
    AtItsTurn(Input),
    /// A path the walk could not read: reported at its turn.
    Unreadable(WalkError),
}

/// The inputs in flight, in walk order: at most so many, and at most so
/// many bytes of them (what they print grows with what they hold).
pub struct Window {
    /// Each with its size.
    pending: VecDeque<(Pending, u64)>,
    bytes: u64,
    max_inputs: usize,
    max_bytes: u64,
}

/// What is at the front of the window, ready for its turn.
pub enum Turn {
    /// Scanned on the pool: how it came out.
    Came(Input, Outcome),
    /// To be scanned now.
    ScanNow(Input),
    Unreadable(WalkError),
}

impl Window {
    /// A window of at most `max_inputs` inputs and `max_bytes` bytes in
    /// flight (one input, whatever its size, is always let in).
    pub fn new(max_inputs: usize, max_bytes: u64) -> Window {
        Window {
            pending: VecDeque::new(),
            bytes: 0,
            max_inputs: max_inputs.max(1),
            max_bytes,
        }
    }

    /// Adds an input of `size` bytes at the back.
    pub fn push(&mut self, pending: Pending, size: u64) {
        self.bytes += size;
        self.pending.push_back((pending, size));
    }

    fn pop_front(&mut self) -> Option<Pending> {
        let (pending, size) = self.pending.pop_front()?;
        self.bytes -= size;
        Some(pending)
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.pending.len() >= self.max_inputs || self.bytes >= self.max_bytes
    }

    /// The front input if its turn can be taken without waiting (an input
    /// scanned on the pool has come back).
    pub fn ready(&mut self) -> Option<Turn> {
        let turn = match &self.pending.front()?.0 {
            Pending::OnPool(rx) => match rx.try_recv() {
                Ok((input, outcome)) => Turn::Came(input, outcome),
                Err(TryRecvError::Empty) => return None,
                // The scan panicked: the pool passes the panic on when
                // its scope ends.
                Err(TryRecvError::Disconnected) => {
                    self.pop_front();
                    return None;
                }
            },
            Pending::AtItsTurn(_) | Pending::Unreadable(_) => match self.pop_front()? {
                Pending::AtItsTurn(input) => return Some(Turn::ScanNow(input)),
                Pending::Unreadable(e) => return Some(Turn::Unreadable(e)),
                Pending::OnPool(_) => unreachable!("looked at above"),
            },
        };
        self.pop_front();
        Some(turn)
    }

    /// The front input, once its turn can be taken; while its scan runs,
    /// this thread works on the pool's jobs (scans further back, pieces of
    /// the front one). `None` if the window is empty.
    pub fn next(&mut self) -> Option<Turn> {
        loop {
            if self.pending.is_empty() {
                return None;
            }
            if let Some(turn) = self.ready() {
                return Some(turn);
            }
            let Some((Pending::OnPool(rx), _)) = self.pending.front() else {
                // The front scan panicked and was dropped: the next.
                continue;
            };
            if let Some(rayon::Yield::Executed) = rayon::yield_now() {
                continue;
            }
            // Nothing to do here: the front's scan runs on another thread.
            // Wait for it a little, then look for work again (its scan
            // may give the pool pieces to share).
            match rx.recv_timeout(Duration::from_micros(200)) {
                Ok((input, outcome)) => {
                    self.pop_front();
                    return Some(Turn::Came(input, outcome));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.pop_front();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::Source;
    use std::sync::mpsc::sync_channel;

    fn input(name: &str) -> Input {
        Input {
            name: name.to_string(),
            source: Source::File(name.into()),
            walked: true,
            size: Some(1),
        }
    }

    fn name(turn: Option<Turn>) -> String {
        match turn {
            Some(Turn::Came(input, _) | Turn::ScanNow(input)) => input.name,
            Some(Turn::Unreadable(e)) => e.name,
            None => "none".to_string(),
        }
    }

    #[test]
    fn turns_come_in_walk_order_whatever_order_the_scans_end_in() {
        let mut window = Window::new(8, 1 << 20);
        let (first, first_done) = sync_channel(1);
        let (second, second_done) = sync_channel(1);
        window.push(Pending::OnPool(first_done), 1);
        window.push(Pending::OnPool(second_done), 1);
        window.push(Pending::AtItsTurn(input("third")), 1);
        second.send((input("second"), Outcome::AtItsTurn)).unwrap();
        assert!(window.ready().is_none(), "the first is not scanned yet");
        first.send((input("first"), Outcome::AtItsTurn)).unwrap();
        assert_eq!(name(window.next()), "first");
        assert_eq!(name(window.ready()), "second");
        assert_eq!(name(window.ready()), "third");
        assert!(window.is_empty());
        assert_eq!(name(window.next()), "none");
    }

    #[test]
    fn the_window_is_full_at_its_inputs_or_its_bytes() {
        let mut window = Window::new(2, 100);
        window.push(Pending::AtItsTurn(input("a")), 10);
        assert!(!window.is_full());
        window.push(Pending::AtItsTurn(input("b")), 10);
        assert!(window.is_full(), "two inputs");
        window.ready();
        assert!(!window.is_full());
        window.ready();
        // One input is let in whatever its size.
        window.push(Pending::AtItsTurn(input("big")), 1000);
        assert!(window.is_full(), "its bytes");
        window.ready();
        assert!(!window.is_full() && window.is_empty());
    }

    #[test]
    fn a_recorder_keeps_messages_in_their_place_between_hits() {
        use std::io::Write as _;
        let mut record = Recorder::start();
        let _ = writeln!(progress::message(), "before");
        record.scanned(7);
        let _ = writeln!(progress::message(), "after");
        record.counts(&Counts {
            valid: 2,
            invalid: 1,
        });
        record.end_input(b"p").unwrap();
        let events = record.finish();
        let seen: Vec<String> = events
            .iter()
            .map(|e| match e {
                Event::Hit(_) => "hit".to_string(),
                Event::Messages(m) => String::from_utf8_lossy(m).into_owned(),
                Event::Scanned(n) => format!("scanned {n}"),
                Event::Counts(c) => format!("counts {} {}", c.valid, c.invalid),
                Event::End => "end".to_string(),
            })
            .collect();
        assert_eq!(
            seen,
            ["before\n", "scanned 7", "after\n", "counts 2 1", "end"]
        );
    }

    #[test]
    fn holds_nest_and_each_keeps_its_own_messages() {
        use std::io::Write as _;
        let outer = Held::start();
        let _ = writeln!(progress::message(), "outer 1");
        {
            // A scan run inside another on the same thread (a thread that
            // waits on the pool takes a job).
            let inner = Held::start();
            let _ = writeln!(progress::message(), "inner");
            assert_eq!(inner.take(), b"inner\n");
        }
        let _ = writeln!(progress::message(), "outer 2");
        assert_eq!(outer.take(), b"outer 1\nouter 2\n");
        assert!(outer.take().is_empty());
    }
}
