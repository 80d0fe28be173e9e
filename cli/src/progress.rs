//! Progress on standard error for long work on a terminal (docs/rules.md §4),
//! drawn only when standard error is a terminal and only once the run has
//! taken more than a second — nothing on a pipe, nothing for quick runs.
//!
//! When the total is known — every PATH is a regular file, and their sizes
//! add up to it — the display is a bar with the percentage, the bytes
//! scanned of the total, the rate and the time left; otherwise (standard
//! input, a pipe, a directory whose walk lists files as it goes) a spinner
//! with the bytes scanned and the rate ([`Look`]). Both name the input
//! being read.
//!
//! When standard output is the same terminal, the display is taken off
//! before hits are written there ([`ClearsProgress`], under standard
//! output's buffer: only what reaches the terminal pays), and drawn again
//! once the terminal has had no output for a quarter of a second
//! ([`should_show`]), so
//! that a hit never shares a line with it — and hits that come thick and
//! fast are not slowed by a redraw each. Messages on standard error do the
//! same ([`message`]): each is written whole, the display taken off first.

use std::ffi::OsString;
use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before progress is shown.
const DELAY: Duration = Duration::from_secs(1);

/// How long the terminal goes without output before progress is shown
/// again: a tick of the display (so that hits that come fast cost at most
/// four redraws a second).
const QUIET: Duration = Duration::from_millis(250);

/// What erases the display's line (it is one line, the cursor at its end):
/// a carriage return and ANSI "erase line", as indicatif writes it.
const ERASE_LINE: &[u8] = b"\r\x1b[2K";

/// Whether to draw the display now: standard error is a terminal, the
/// display is not drawn, the run has gone on for [`DELAY`] and the
/// terminal has had no output for [`QUIET`].
pub fn should_show(terminal: bool, drawn: bool, run: Duration, since_output: Duration) -> bool {
    terminal && !drawn && run > DELAY && since_output > QUIET
}

/// What the display looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// The total is known: percentage, rate and time left.
    Bar,
    /// It is not: bytes scanned and rate.
    Spinner,
}

impl Look {
    /// The look for a run of `total` bytes (`None`: not known).
    pub fn for_total(total: Option<u64>) -> Look {
        match total {
            Some(_) => Look::Bar,
            None => Look::Spinner,
        }
    }

    fn template(self) -> &'static str {
        match self {
            Look::Bar => {
                "{bar:24} {percent:>3}% {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left) {wide_msg}"
            }
            Look::Spinner => "{spinner} {bytes} scanned ({bytes_per_sec}) {wide_msg}",
        }
    }
}

/// The bytes the PATH arguments hold, when every one is a regular file
/// (no standard input, no directory, no FIFO): the total of the bar.
pub fn known_total(paths: &[OsString]) -> Option<u64> {
    if paths.is_empty() {
        return None;
    }
    paths.iter().try_fold(0u64, |sum, p| {
        if p == "-" {
            return None;
        }
        let meta = fs::metadata(p).ok().filter(|m| m.is_file())?;
        Some(sum.saturating_add(meta.len()))
    })
}

/// A stream's terminal: `None` if it is not one, else its device number
/// when known (Unix).
pub type Terminal = Option<Option<u64>>;

/// Whether writing to standard output (on `stdout`) must clear a display
/// drawn on standard error (on `stderr`): both are terminals, and the same
/// one as far as can be told (a device number unknown counts as the same:
/// clearing for nothing costs little, a hit on the display's line is what
/// this is for).
pub fn clears_before_output(stdout: Terminal, stderr: Terminal) -> bool {
    match (stdout, stderr) {
        (Some(Some(out)), Some(Some(err))) => out == err,
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// The terminal of a standard stream.
#[cfg(unix)]
fn terminal_of(stream: &(impl IsTerminal + std::os::fd::AsFd)) -> Terminal {
    use std::os::unix::fs::MetadataExt;
    if !stream.is_terminal() {
        return None;
    }
    let device = stream
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .and_then(|fd| fs::File::from(fd).metadata().ok())
        .map(|m| m.rdev());
    Some(device)
}

/// The terminal of a standard stream (its device is not looked up).
#[cfg(not(unix))]
fn terminal_of(stream: &impl IsTerminal) -> Terminal {
    stream.is_terminal().then_some(None)
}

/// The display of the run, for [`message`].
static RUN: OnceLock<Progress> = OnceLock::new();

/// A message for standard error: gathered, then written whole when
/// dropped, the progress display cleared before it if it is drawn (so
/// `let _ = writeln!(progress::message(), "…");` writes one line of its
/// own).
pub fn message() -> Message {
    Message(Vec::new())
}

/// See [`message`].
pub struct Message(Vec<u8>);

impl Write for Message {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Message {
    fn drop(&mut self) {
        if HELD.with_borrow_mut(|held| {
            held.last_mut()
                .map(|frame| frame.extend_from_slice(&self.0))
                .is_some()
        }) {
            return;
        }
        // A message that cannot be written must not end the run. (Standard
        // error is not locked across the call: the display's ticker draws
        // holding the bar's lock and then takes standard error's, while
        // taking the display off waits for the ticker — a lock held here
        // could make the two wait for each other. The `switch` mutex keeps
        // our own writers in order.)
        let _ = write_clearing(RUN.get(), &mut io::stderr(), &self.0);
    }
}

thread_local! {
    /// The messages of the inputs this thread is scanning for
    /// [`crate::in_order`](mod@crate::in_order), innermost last (a thread waiting on the pool
    /// may scan another input inside the first: see [`Held`]).
    static HELD: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// While it lives, the messages written on this thread are held instead of
/// written ([`Held::take`] hands them over), so that an input scanned
/// beside others has its messages printed at its turn
/// ([`crate::in_order`](mod@crate::in_order)). Holds nest: a thread that waits on the pool
/// inside one scan may run another input's scan whole, and that scan's
/// messages go to its own hold; dropped, a hold gives the thread back to
/// the one before.
pub struct Held(std::marker::PhantomData<*const ()>);

impl Held {
    /// Starts holding this thread's messages.
    pub fn start() -> Held {
        HELD.with_borrow_mut(|held| held.push(Vec::new()));
        Held(std::marker::PhantomData)
    }

    /// The messages held since the last call (whole lines, as written).
    pub fn take(&self) -> Vec<u8> {
        HELD.with_borrow_mut(|held| held.last_mut().map(std::mem::take).unwrap_or_default())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        HELD.with_borrow_mut(|held| held.pop());
    }
}

/// Writes `text` to `out` (the terminal `progress` draws on, if it is
/// given) in one go, the display taken off first if it is drawn.
fn write_clearing(
    progress: Option<&Progress>,
    out: &mut impl Write,
    text: &[u8],
) -> io::Result<()> {
    match progress {
        Some(p) => p.write_off_display(out, |out| out.write_all(text)),
        None => out.write_all(text),
    }
}

/// The progress display of one run (cheap to clone: shared).
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    /// Whether standard error is a terminal (where the display may go).
    terminal: bool,
    /// Whether the display is drawn, changed under `switch`; read without
    /// the lock on each read to see whether to draw it.
    drawn: Arc<AtomicBool>,
    /// Taken to draw or take off the display, and to write to its terminal
    /// (so that the display is not drawn in the middle of a line).
    switch: Arc<Mutex<()>>,
    /// When output was last written to the terminal (milliseconds into
    /// the run).
    last_output: Arc<AtomicU64>,
}

impl Progress {
    /// The display of a run of `total` bytes (`None`: not known).
    pub fn new(total: Option<u64>) -> Progress {
        let progress = Progress::with_terminal(total, io::stderr().is_terminal());
        // The first is the run's (there is one).
        let _ = RUN.set(progress.clone());
        progress
    }

    fn with_terminal(total: Option<u64>, terminal: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(Look::for_total(total).template()) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            start: Instant::now(),
            terminal,
            drawn: Arc::new(AtomicBool::new(false)),
            switch: Arc::new(Mutex::new(())),
            last_output: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Counts what `reader` yields; names the input being read.
    pub fn wrap<R: Read>(&self, reader: R, name: &str) -> Counted<R> {
        self.name(name);
        Counted {
            inner: reader,
            progress: self.clone(),
        }
    }

    /// Names the input being read.
    pub fn name(&self, name: &str) {
        self.bar.set_message(name.to_string());
    }

    /// Counts `n` more bytes read.
    pub fn advance(&self, n: usize) {
        self.bar.inc(n as u64);
        if self.terminal && !self.drawn.load(Ordering::Relaxed) {
            let run = self.start.elapsed();
            let since = run.saturating_sub(Duration::from_millis(
                self.last_output.load(Ordering::Relaxed),
            ));
            if should_show(self.terminal, false, run, since)
                && self.show(ProgressDrawTarget::stderr_with_hz(4))
            {
                // Redrawn also while a read waits.
                self.bar.enable_steady_tick(Duration::from_millis(250));
            }
        }
    }

    /// Starts drawing on `target`, unless the display is drawn already;
    /// returns whether it started.
    fn show(&self, target: ProgressDrawTarget) -> bool {
        let _switch = self.switch.lock().unwrap_or_else(|e| e.into_inner());
        let start = !self.drawn.load(Ordering::Relaxed);
        if start {
            self.bar.set_draw_target(target);
            self.drawn.store(true, Ordering::Relaxed);
        }
        start
    }

    /// Writes to `out`, the display's terminal, with `write`, the display
    /// taken off first if it is drawn (its line erased); it is drawn again
    /// once the terminal has been quiet for [`QUIET`].
    fn write_off_display<W: Write, T>(
        &self,
        out: &mut W,
        write: impl FnOnce(&mut W) -> io::Result<T>,
    ) -> io::Result<T> {
        let _switch = self.switch.lock().unwrap_or_else(|e| e.into_inner());
        if self.drawn.load(Ordering::Relaxed) {
            self.bar.disable_steady_tick();
            // No draw after this: the line can be erased.
            self.bar.set_draw_target(ProgressDrawTarget::hidden());
            self.drawn.store(false, Ordering::Relaxed);
            out.write_all(ERASE_LINE)?;
        }
        let r = write(out);
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_output.store(now, Ordering::Relaxed);
        r
    }

    /// `out` (standard output's own writer), clearing the display before
    /// each write when standard output is the terminal it is drawn on.
    pub fn clearing<W: Write>(&self, out: W) -> ClearsProgress<W> {
        let same = clears_before_output(terminal_of(&io::stdout()), terminal_of(&io::stderr()));
        ClearsProgress {
            inner: out,
            progress: same.then(|| self.clone()),
        }
    }

    /// Removes the display before the run reports its end.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A writer to the terminal the progress display is drawn on: each write
/// takes the display off first if it is drawn (see the module docs).
pub struct ClearsProgress<W> {
    inner: W,
    /// The display, when it shares the terminal.
    progress: Option<Progress>,
}

impl<W: Write> ClearsProgress<W> {
    fn around<T>(&mut self, f: impl FnOnce(&mut W) -> io::Result<T>) -> io::Result<T> {
        match &self.progress {
            None => f(&mut self.inner),
            Some(p) => p.write_off_display(&mut self.inner, f),
        }
    }
}

impl<W: Write> Write for ClearsProgress<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.around(|w| w.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.around(|w| w.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.around(|w| w.flush())
    }
}

/// A reader whose bytes count towards the progress display.
pub struct Counted<R> {
    inner: R,
    progress: Progress,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_known_total_draws_a_bar_else_a_spinner() {
        assert_eq!(Look::for_total(Some(0)), Look::Bar);
        assert_eq!(Look::for_total(Some(1 << 40)), Look::Bar);
        assert_eq!(Look::for_total(None), Look::Spinner);
        for look in [Look::Bar, Look::Spinner] {
            assert!(ProgressStyle::with_template(look.template()).is_ok());
        }
        assert!(Look::Bar.template().contains("{percent"));
        assert!(Look::Bar.template().contains("{eta}"));
        assert!(Look::Spinner.template().contains("{bytes_per_sec}"));
    }

    #[test]
    fn the_total_is_known_when_every_path_is_a_regular_file() {
        let dir = std::env::temp_dir().join(format!("iriscan-progress-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        fs::write(&a, [0; 10]).unwrap();
        fs::write(&b, [0; 32]).unwrap();
        let os = |p: &std::path::Path| p.as_os_str().to_owned();
        assert_eq!(known_total(&[os(&a), os(&b)]), Some(42));
        assert_eq!(known_total(&[os(&a)]), Some(10));
        // Standard input, a directory, a missing file: not known.
        assert_eq!(known_total(&[]), None);
        assert_eq!(known_total(&[os(&a), "-".into()]), None);
        assert_eq!(known_total(&[os(&a), os(&dir)]), None);
        assert_eq!(known_total(&[os(&dir.join("missing"))]), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn output_clears_the_display_only_on_its_terminal() {
        // Both on one terminal (or one whose device is unknown): cleared.
        assert!(clears_before_output(Some(Some(7)), Some(Some(7))));
        assert!(clears_before_output(Some(None), Some(Some(7))));
        assert!(clears_before_output(Some(Some(7)), Some(None)));
        // Two terminals, or a pipe on either side: left alone.
        assert!(!clears_before_output(Some(Some(7)), Some(Some(8))));
        assert!(!clears_before_output(None, Some(Some(7))));
        assert!(!clears_before_output(Some(Some(7)), None));
        assert!(!clears_before_output(None, None));
    }

    /// A terminal that records what is written to it: by the display and
    /// by standard output, in order.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }
        fn put(&self, s: &str) {
            self.0.lock().unwrap().push_str(s);
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, n: usize) -> io::Result<()> {
            if n > 0 {
                self.put(&format!("<up {n}>"));
            }
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.put(s);
            self.put("\n");
            Ok(())
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.put(s);
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            self.put("<clear>");
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Write for Screen {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.put(&String::from_utf8_lossy(buf));
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_display_is_drawn_after_a_second_of_run_and_of_quiet() {
        let s = Duration::from_millis;
        assert!(should_show(true, false, s(1500), s(1500)));
        // Not on a pipe, not twice, not in the first second of the run,
        // not within a quarter of a second of output to the terminal.
        assert!(!should_show(false, false, s(1500), s(1500)));
        assert!(!should_show(true, true, s(1500), s(1500)));
        assert!(!should_show(true, false, s(500), s(1500)));
        assert!(!should_show(true, false, s(5000), s(200)));
        assert!(should_show(true, false, s(5000), s(300)));
    }

    #[test]
    fn a_hit_is_written_on_a_line_of_its_own() {
        let screen = Screen::default();
        let progress = Progress::with_terminal(Some(100), true);
        progress.name("big.txt");
        let mut out = ClearsProgress {
            inner: screen.clone(),
            progress: Some(progress.clone()),
        };
        // Not drawn yet: written as it is.
        out.write_all(b"http://a.example/\n").unwrap();
        assert_eq!(screen.text(), "http://a.example/\n");
        // (No steady tick: each draw is the test's.)
        let on_screen = || ProgressDrawTarget::term_like(Box::new(screen.clone()));
        assert!(progress.show(on_screen()));
        assert!(!progress.show(on_screen()), "drawn once");
        progress.advance(50);
        progress.bar.force_draw();
        let drawn = screen.text();
        assert!(
            drawn.contains("50%") && drawn.trim_end().ends_with("big.txt"),
            "{drawn}"
        );
        // Drawn: its line erased before the hit, and not drawn again at
        // once (hits that come fast are not slowed by redraws).
        out.write_all(b"http://b.example/\n").unwrap();
        out.write_all(b"http://c.example/\n").unwrap();
        progress.bar.force_draw();
        assert_eq!(
            &screen.text()[drawn.len()..],
            "\r\x1b[2Khttp://b.example/\nhttp://c.example/\n"
        );
        assert!(!progress.drawn.load(Ordering::Relaxed));
        // A message too, drawn or not.
        assert!(progress.show(on_screen()));
        progress.bar.force_draw();
        let drawn = screen.text();
        write_clearing(
            Some(&progress),
            &mut screen.clone(),
            b"iriscan: x: warning\n",
        )
        .unwrap();
        write_clearing(
            Some(&progress),
            &mut screen.clone(),
            b"iriscan: y: warning\n",
        )
        .unwrap();
        assert_eq!(
            &screen.text()[drawn.len()..],
            "\r\x1b[2Kiriscan: x: warning\niriscan: y: warning\n"
        );
    }
}
