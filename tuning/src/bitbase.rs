//! `tetrarch-tune bitbase`: generates the draughts endgame tables (win/draw/loss) into a
//! directory, one file per material class, resuming where an earlier run stopped.
//!
//! Scheme: the classes come in the generator's order (fewer pieces first, then fewer men), so
//! each one finds the tables its captures and crownings lead to already in memory. A class
//! whose files (its own and its mirror's) are both present is read back instead of generated,
//! which is how an interrupted run resumes; a new file is written under a temporary name and
//! renamed, so a file that exists is always whole. The engine crate does the solving and the
//! byte form; this file only does the file work and the reporting.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use tetrarch::games::draughts::bitbase::{self, Bitbases, Class, Progress, Table};

use crate::commands::Args;

pub const HELP: &str = "\
tetrarch-tune bitbase: generates the international draughts endgame tables (win, draw or
loss for every position of up to N pieces, both sides to move) by retrograde analysis. Rule
draws (25-move, 16- and 5-move rules, repetition) are not part of the values. Resumable: a
class whose files exist is read instead of generated.

  -pieces N       most pieces on the board, 2-5 (default 4)
  -dir DIR        where the files go (default ~/.local/share/tetrarch-data/draughts-bb)
  -threads N      threads (default: every core)
  -verify N       afterwards, check N random positions of every class (each with both sides
                  to move) against the best of their successors, by forward generation
  -quiet          no progress lines
";

/// The default table directory under the user's home, if the home is known.
pub fn default_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| Path::new(&h).join(bitbase::DEFAULT_DIR))
}

/// Reads every table file in `dir` (a missing directory reads as no tables).
pub fn load_dir(dir: &Path) -> Result<Bitbases, String> {
    Bitbases::load_with(|name| std::fs::read(dir.join(name)).ok())
}

/// The tables a `-bitbases DIR` option names for `game` (a game's name): at least one, or an
/// error that says which option failed, worded alike wherever the option is taken. Only
/// draughts has endgame tables.
pub fn load_option(game: &str, dir: &str) -> Result<Arc<Bitbases>, String> {
    if game != "draughts" {
        return Err("-bitbases: only draughts has endgame tables".into());
    }
    let tables = load_dir(Path::new(dir)).map_err(|e| format!("-bitbases: {e}"))?;
    if tables.is_empty() {
        return Err(format!("-bitbases: no tables in '{dir}'"));
    }
    Ok(Arc::new(tables))
}

fn read_table(path: &Path, class: Class) -> Result<Option<Table>, String> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let t = Table::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            if t.class() != class {
                return Err(format!("{}: not the table of {class}", path.display()));
            }
            Ok(Some(t))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn write_table(dir: &Path, t: &Table) -> Result<usize, String> {
    let bytes = t.to_bytes();
    let path = dir.join(bitbase::file_name(t.class()));
    let tmp = path.with_extension("wdl.tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes.len())
}

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &["quiet"])?;
    let pieces: usize = a.get("pieces", 4)?;
    if !(2..=5).contains(&pieces) {
        return Err("-pieces must be 2 to 5".into());
    }
    let dir = match a.str("dir") {
        Some(d) => PathBuf::from(d),
        None => default_dir().ok_or("no HOME: give -dir")?,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: usize = a.get("threads", cores)?;
    let quiet = a.flag("quiet");
    let verify: u64 = a.get("verify", 0)?;
    a.finish()?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;

    let mut db = Bitbases::new();
    let started = Instant::now();
    let mut total_bytes = 0u64;
    println!("class        positions       wins      draws     losses    seconds      bytes");
    for class in bitbase::order(pieces) {
        let mut pair = vec![class];
        if class.mirror() != class {
            pair.push(class.mirror());
        }
        let mut found = Vec::new();
        for &c in &pair {
            if let Some(t) = read_table(&dir.join(bitbase::file_name(c)), c)? {
                found.push(t);
            }
        }
        let (tables, seconds, fresh) = if found.len() == pair.len() {
            (found, 0.0, false)
        } else {
            let t0 = Instant::now();
            let report = |p: Progress| {
                if !quiet {
                    match p {
                        Progress::Initialised { positions, decided } => eprintln!(
                            "{class}: {positions} positions, {decided} decided by their exits"
                        ),
                        Progress::Level { level, decided } => {
                            if decided > 0 {
                                eprintln!("{class}: level {level}: {decided} decided")
                            }
                        }
                    }
                }
            };
            let tables = bitbase::generate(class, &db, threads, &report);
            (tables, t0.elapsed().as_secs_f64(), true)
        };
        for t in tables {
            let bytes = if fresh {
                write_table(&dir, &t)?
            } else {
                std::fs::metadata(dir.join(bitbase::file_name(t.class())))
                    .map_or(0, |m| m.len() as usize)
            };
            total_bytes += bytes as u64;
            let [w, d, l] = t.tally();
            println!(
                "{:<10} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}",
                t.class().to_string(),
                w + d + l,
                w,
                d,
                l,
                if fresh {
                    format!("{seconds:.1}")
                } else {
                    "read".into()
                },
                bytes
            );
            db.insert(t);
        }
    }
    println!(
        "{} tables of up to {pieces} pieces in {}: {total_bytes} bytes, {:.1} s",
        db.len(),
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    if verify > 0 {
        let mut checked = 0;
        for n in 2..=pieces {
            for c in Class::all_with(n) {
                checked += bitbase::verify_class(&db, c, verify, 1)?;
            }
        }
        println!("verified {checked} positions, each with both sides to move: all agree");
    }
    Ok(())
}
