//! `--generate`: the man page and the shell completions, made from the
//! same clap definition as `--help` (so they never disagree with it).

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use crate::args::{Args, GenerateArg};

/// Prints what `what` names to `out`.
pub fn print(what: GenerateArg, out: &mut impl Write) -> io::Result<()> {
    let mut cmd = Args::command();
    let shell = match what {
        GenerateArg::Man => return clap_mangen::Man::new(cmd).render(out),
        GenerateArg::CompleteBash => Shell::Bash,
        GenerateArg::CompleteZsh => Shell::Zsh,
        GenerateArg::CompleteFish => Shell::Fish,
        GenerateArg::CompletePowershell => Shell::PowerShell,
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "iriscan", &mut buf);
    out.write_all(&buf)?;
    out.flush()
}
