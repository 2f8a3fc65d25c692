//! A match's journal (`-resume FILE`), so that a long match, an SPRT above all, survives an
//! interruption and goes on in a later run as if it had never stopped.
//!
//! Scheme: a text file whose first line names the format and whose second holds the match's
//! arguments (those that change what is played: not `-concurrency`, `-resume`, the output
//! files, `-ratinginterval` or `-debug`); then one line per finished game, appended and flushed
//! as it ends: `number first second pair points reason`, with `pair` `-` outside pairs and
//! `points` the first mover's. A run given an existing journal checks that the arguments are
//! the same and that every line is a game of this schedule, counts those games, and plays only
//! the others. Games in flight when a run is stopped are not in the journal, so they are played
//! again; a last line cut short by the stop is dropped. Stopping by time cannot bias a
//! sequential test, so an SPRT continued this way keeps its error rates.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;

use super::tournament::ScheduledGame;

const MAGIC: &str = "tetrarch-tune match journal 1";

/// Where the journal lives, and the arguments that must match.
#[derive(Clone, Debug)]
pub struct JournalSpec {
    pub path: String,
    pub fingerprint: String,
}

/// A finished game read back from the journal.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub job: ScheduledGame,
    /// The first mover's points: 0, 0.5 or 1.
    pub first_points: f64,
    pub reason: String,
}

/// An open journal, appended to as games end.
pub struct Journal {
    file: File,
}

impl Journal {
    /// Opens the journal of `spec` for the schedule `jobs`: creates it, or reads back the games
    /// it holds (refusing one written for other arguments or another schedule).
    pub fn open(
        spec: &JournalSpec,
        jobs: &[ScheduledGame],
    ) -> Result<(Journal, Vec<Entry>), String> {
        let path = &spec.path;
        let fingerprint = one_line(&spec.fingerprint);
        let entries = match std::fs::read_to_string(path) {
            Ok(text) => {
                // A line without its newline was cut short by a stop: drop it.
                let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
                let entries = read(complete, &fingerprint, jobs)
                    .map_err(|e| format!("-resume {path}: {e}"))?;
                if complete.len() != text.len() {
                    std::fs::write(path, complete).map_err(|e| format!("-resume {path}: {e}"))?;
                }
                entries
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(path, format!("{MAGIC}\nargs {fingerprint}\n"))
                    .map_err(|e| format!("-resume {path}: {e}"))?;
                Vec::new()
            }
            Err(e) => return Err(format!("-resume {path}: {e}")),
        };
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("-resume {path}: {e}"))?;
        Ok((Journal { file }, entries))
    }

    /// Records a finished game.
    pub fn append(
        &mut self,
        job: &ScheduledGame,
        first_points: f64,
        reason: &str,
    ) -> Result<(), String> {
        let pair = job.pair.map_or("-".to_string(), |p| p.to_string());
        let line = format!(
            "{} {} {} {pair} {first_points} {}\n",
            job.number,
            job.first,
            job.second,
            one_line(reason)
        );
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the journal: {e}"))
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// The games of a journal's complete lines, checked against the arguments and the schedule.
fn read(text: &str, fingerprint: &str, jobs: &[ScheduledGame]) -> Result<Vec<Entry>, String> {
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Err("not a match journal".into());
    }
    match lines.next().and_then(|l| l.strip_prefix("args ")) {
        Some(args) if args == fingerprint => {}
        Some(args) => {
            return Err(format!(
                "written by a match with other arguments ({args}); give a new file"
            ))
        }
        None => return Err("no arguments line".into()),
    }
    let mut seen = HashSet::new();
    let mut entries = Vec::new();
    for (n, line) in lines.enumerate() {
        let bad = |why: &str| format!("line {}: {why}: '{line}'", n + 3);
        let mut words = line.splitn(6, ' ');
        let mut field = || words.next().ok_or_else(|| bad("too few fields"));
        let number: usize = field()?.parse().map_err(|_| bad("bad game number"))?;
        let first: usize = field()?.parse().map_err(|_| bad("bad engine"))?;
        let second: usize = field()?.parse().map_err(|_| bad("bad engine"))?;
        let pair = match field()? {
            "-" => None,
            p => Some(p.parse().map_err(|_| bad("bad pair"))?),
        };
        let first_points: f64 = field()?.parse().map_err(|_| bad("bad points"))?;
        let reason = words.next().unwrap_or("").to_string();
        let job = number
            .checked_sub(1)
            .and_then(|i| jobs.get(i))
            .copied()
            .ok_or_else(|| bad("no such game in this schedule"))?;
        if (job.first, job.second, job.pair) != (first, second, pair) {
            return Err(bad("another game in this schedule"));
        }
        if ![0.0, 0.5, 1.0].contains(&first_points) {
            return Err(bad("points must be 0, 0.5 or 1"));
        }
        if !seen.insert(number) {
            return Err(bad("a game twice"));
        }
        entries.push(Entry {
            job,
            first_points,
            reason,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::tournament::{schedule, Format};

    fn temp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("tetrarch-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path.to_string_lossy().to_string()
    }

    #[test]
    fn games_written_are_read_back_and_a_cut_line_is_dropped() {
        let jobs = schedule(2, Format::RoundRobin, 1, 6, true);
        let spec = JournalSpec {
            path: temp("a.journal"),
            fingerprint: "-engine cmd=a -engine cmd=b -games 6 -repeat".into(),
        };
        let (mut j, entries) = Journal::open(&spec, &jobs).unwrap();
        assert!(entries.is_empty());
        j.append(&jobs[0], 1.0, "White mates").unwrap();
        j.append(&jobs[3], 0.5, "Draw by\nrepetition").unwrap();
        drop(j);
        // A stop in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&spec.path).unwrap();
        f.write_all(b"5 0 1 2 0").unwrap();
        drop(f);
        let (mut j, entries) = Journal::open(&spec, &jobs).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].job, jobs[0]);
        assert_eq!(entries[0].first_points, 1.0);
        assert_eq!(entries[1].job, jobs[3]);
        assert_eq!(entries[1].reason, "Draw by repetition");
        j.append(&jobs[4], 0.0, "Black mates").unwrap();
        drop(j);
        let (_, entries) = Journal::open(&spec, &jobs).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[2].job, jobs[4]);
    }

    #[test]
    fn another_match_or_a_damaged_journal_is_refused() {
        let jobs = schedule(2, Format::RoundRobin, 1, 4, true);
        let path = temp("b.journal");
        let spec = |fingerprint: &str| JournalSpec {
            path: path.clone(),
            fingerprint: fingerprint.into(),
        };
        let (mut j, _) = Journal::open(&spec("-games 4"), &jobs).unwrap();
        j.append(&jobs[1], 0.0, "Black mates").unwrap();
        drop(j);
        let err = Journal::open(&spec("-games 6"), &jobs).err().unwrap();
        assert!(err.contains("other arguments"), "{err}");
        for bad in [
            "9 0 1 4 1 x\n",   // not in the schedule
            "1 1 0 0 1 x\n",   // engines swapped
            "1 0 1 0 0.7 x\n", // points
            "2 1 0 0 1 x\n",   // already there
            "x\n",
        ] {
            let good = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, format!("{good}{bad}")).unwrap();
            let err = Journal::open(&spec("-games 4"), &jobs).err();
            assert!(err.is_some_and(|e| e.contains("line 4")), "{bad}");
            std::fs::write(&path, good).unwrap();
        }
        std::fs::write(&path, "something else\n").unwrap();
        assert!(Journal::open(&spec("-games 4"), &jobs).is_err());
    }
}
