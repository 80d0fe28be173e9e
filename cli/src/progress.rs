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
//! When standard output is the same terminal, the display is cleared
//! before hits are written there and drawn again below them
//! ([`ClearsProgress`], under standard output's buffer: only what reaches
//! the terminal pays, and only while the display is drawn), so that a hit
//! never shares a line with it. Messages on standard error do the same
//! ([`message`]): each is written whole, the display cleared before it.

use std::ffi::OsString;
use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before progress is shown.
const DELAY: Duration = Duration::from_secs(1);

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
        // A message that cannot be written must not end the run.
        let _ = write_clearing(RUN.get(), &mut io::stderr().lock(), &self.0);
    }
}

/// Writes `text` to `out` in one go, clearing `progress` first (and drawing
/// it again after) if it is drawn.
fn write_clearing(
    progress: Option<&Progress>,
    out: &mut impl Write,
    text: &[u8],
) -> io::Result<()> {
    if text.is_empty() {
        return Ok(());
    }
    match progress {
        Some(p) if p.drawn.load(Ordering::Relaxed) => p.bar.suspend(|| out.write_all(text)),
        _ => out.write_all(text),
    }
}

/// The progress display of one run (cheap to clone: shared).
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    /// Whether standard error is a terminal (where the display may go).
    terminal: bool,
    /// Whether the display is drawn: read on each write of standard output
    /// to the same terminal, without a lock.
    drawn: Arc<AtomicBool>,
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
        if self.terminal
            && !self.drawn.load(Ordering::Relaxed)
            && self.start.elapsed() > DELAY
            && self.show(ProgressDrawTarget::stderr_with_hz(4))
        {
            // Redrawn also while a read waits.
            self.bar.enable_steady_tick(Duration::from_millis(250));
        }
    }

    /// Starts drawing on `target`, unless the display is drawn already;
    /// returns whether it started.
    fn show(&self, target: ProgressDrawTarget) -> bool {
        let start = !self.drawn.swap(true, Ordering::Relaxed);
        if start {
            self.bar.set_draw_target(target);
        }
        start
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

/// A writer to the terminal the progress display is drawn on: while it is
/// drawn, each write clears it first and draws it again after (indicatif's
/// `suspend`); while it is not, a write costs one relaxed load more.
pub struct ClearsProgress<W> {
    inner: W,
    /// The display, when it shares the terminal.
    progress: Option<Progress>,
}

impl<W: Write> ClearsProgress<W> {
    fn around<T>(&mut self, f: impl FnOnce(&mut W) -> T) -> T {
        match &self.progress {
            Some(p) if p.drawn.load(Ordering::Relaxed) => p.bar.suspend(|| f(&mut self.inner)),
            _ => f(&mut self.inner),
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
        assert!(progress.show(ProgressDrawTarget::term_like(Box::new(screen.clone()))));
        progress.advance(50);
        progress.bar.force_draw();
        let drawn = screen.text();
        assert!(
            drawn.contains("50%") && drawn.trim_end().ends_with("big.txt"),
            "{drawn}"
        );
        // Drawn: cleared before the hit, drawn again below it.
        out.write_all(b"http://b.example/\n").unwrap();
        let after = &screen.text()[drawn.len()..];
        let hit = after.find("http://b.example/\n").expect("hit written");
        assert_eq!(&after[..hit], "<clear>", "{after:?}");
        assert!(after[hit..].contains("50%"), "{after:?}");
        // A message too.
        let before = screen.text().len();
        write_clearing(
            Some(&progress),
            &mut screen.clone(),
            b"iriscan: x: warning\n",
        )
        .unwrap();
        let after = &screen.text()[before..];
        assert!(
            after.starts_with("<clear>iriscan: x: warning\n"),
            "{after:?}"
        );
        assert!(after.contains("50%"), "{after:?}");
        progress.finish();
        assert!(screen.text().ends_with("<clear>"), "{}", screen.text());
    }
}
