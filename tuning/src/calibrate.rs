//! `tetrarch-tune calibrate`: measures the Elo of a ladder of strength levels against named
//! references and prints the game's Elo table anew.
//!
//! Scheme: a calibration is a set of rungs (our engine at strength levels, see
//! `tetrarch::strength`) and a set of anchors (reference engines, each at a fixed level, node
//! count or time control). Every rung plays every anchor a match of `-games` games through
//! the match runner (`match_runner::cli` builds the configuration from the same words
//! `tetrarch-tune match` takes, so each match can be replayed by hand with the command
//! printed beside it). At least one anchor carries a stated Elo (`elo=`): that defines the
//! scale. Anchors without one, and every rung, are then rated jointly by maximum likelihood
//! over all the match scores (the logistic Elo model, one rating per player, the stated ones
//! held fixed), so a reference is placed on the scale through the rungs it shares with the
//! stated one. A rung's 95% interval comes from the Fisher information of its own matches.
//! A rung that won or lost every game has only a bound, not a rating, and stays out of the
//! table. The fitted (Elo, level) pairs, made increasing in both columns by pooling adjacent
//! violators, are the new table, printed as the game's source keeps it, and a README-ready
//! markdown table lists every match: games, score, Elo difference with its 95% interval, and
//! the command.
//!
//! Pairing: by default every rung plays every anchor. With `-nearest K` a rung plays only the
//! K stated anchors nearest to the Elo the game's current table expects of it (anchors
//! without a stated Elo still play every rung, since they are rated through the rungs), so a
//! wide ladder does not spend its games on matches decided before they start. An anchor
//! without a stated Elo may carry an expected one (`expect=E`): it is then paired like a stated
//! one, but still rated by the fit, so a ladder can reach past its stated reference without
//! playing every foregone match.
//!
//! Journal: with `-journal FILE` every finished match is appended to FILE (its level, anchor,
//! score and exact command), and a later run with the same journal takes the matches whose
//! command it already holds from there instead of playing them, and also counts those of a
//! rung and anchor that `-nearest` would not pair now, or of rounds past `-rounds` (a played
//! match is evidence either way). An interrupted calibration goes on where it stopped, and a
//! ladder is extended (new levels, new anchors) without replaying what it has; a match played
//! with other settings has another command, so it is played anew. `-rounds N` plays each
//! pairing N times, round r > 1 with `-srand r` (another draw of openings, so other games),
//! which is how a journaled ladder gains games where its intervals are still wide. `-fit`
//! plays nothing and fits every journaled match of the plan's levels and anchor names, so a
//! ladder can be played in parts (one command per set of rungs and anchors, each with its own
//! number of games) and fitted as a whole.
//!
//! Load independence: by default our rungs play at fixed effort (Go: a playout cap, the
//! others: the node budget the level itself sets) and the default anchors do too (GNU Go at a
//! level, Fairy-Stockfish and our own full engine at fixed nodes), so the result does not
//! depend on the machine or its load. Only chess's default anchor (Stockfish's `UCI_Elo`) is
//! timed by nature; `-tc` sets the clock for such a ladder.

use std::fmt::Write as _;

use crate::match_runner::{cli, runner};
use crate::stats::{elo_to_score, elo_trinomial, EloEstimate, Wdl};

pub const HELP: &str = "\
tetrarch-tune calibrate: plays our engine at several strength levels against named
references and refits the game's Elo table (engine/src/games/<game>/strength.rs).

Usage: tetrarch-tune calibrate -game chess|xiangqi|go|draughts [OPTIONS]

  -engine PATH          our engine (default: tetrarch next to this program, else on PATH)
  -levels L1,L2,...     strength levels of the rungs, 0..19 (default per game)
  -anchor name=N [elo=E|expect=E] cmd=PATH [arg=A]... [proto=P] [option.X=V]... [nodes=N]
         [tc=TC]        a reference (repeat for several; default per game, below). elo=
                        states its rating and so defines the scale; at least one must.
                        expect= is a guess used only to pair it under -nearest
  -games N              games per rung and anchor (default 20)
  -tc TC                time control of every game (default: none for Go, where both sides
                        play at fixed effort; the others' rungs search their level's nodes)
  -timemargin MS        extra time before a late move loses on time (timed ladders)
  -size N               Go board size (default 9)
  -concurrency N        games in parallel (default 1; fixed-effort matches are load-free)
  -nearest K            each rung plays only the K anchors nearest to the Elo the current
                        table expects of it, among those with a stated elo= or an expected
                        expect=E (default: every anchor; an anchor with neither always plays)
  -journal FILE         append each finished match to FILE, and take the matches FILE
                        already holds (same command) from it instead of playing them again
  -rounds N             N matches of -games per rung and anchor, round r > 1 drawing its
                        openings with -srand r (default 1): with -journal, a ladder played
                        before gains games where its intervals are wide
  -openings ARGS...     passed to the match runner's -openings
  -fit                  play nothing: fit every match the journal holds of these levels and
                        anchor names, whatever its -games or -rounds (a ladder played in
                        parts, one command per part)
  -dry                  print the match commands only

Defaults:
  go        rungs 0,4,8,12 vs GNU Go 3.8 --level 10 (elo=1400, taken as 7 kyu), --level 5 and
            --level 1 (rated through the ladder), 9x9, komi 7
  xiangqi   rungs 3,5,6,7,8,9,11,12 vs Fairy-Stockfish (UCI_Variant xiangqi) at 2000 nodes
            (elo=1500) and at 500, 1000, 8000, 25000 and 50000 nodes (rated through the
            ladder); give -nearest 3
  draughts  rungs 2,4,6,7,8,10,12,14,16,18 vs Scan 2.0 (../shared/tools/build-peers.sh) over
            its first Hub at depth 6 (elo=2000) and depths 1, 2, 4, 8, 10, 12 and 14, and our
            full engine at 100 nodes (rated through the ladder); give
            -openings file=tools/openings/draughts-100.epd, and -nearest 4
  chess     rungs 0,3,6,9,12,15,18 vs Stockfish UCI_Elo 1350 to 2850 in steps of 250 (timed:
            give -tc, e.g. -tc 5+0.05, run it on an idle machine, and give -nearest 2)
";

/// One player of the calibration: a rung or an anchor.
#[derive(Clone, Debug)]
struct Anchor {
    name: String,
    elo: Option<f64>,
    /// A guess at an unstated anchor's rating, for pairing only (never for the fit).
    expect: Option<f64>,
    /// The `-engine` words for the match runner.
    words: Vec<String>,
}

/// One match's result: rung index, anchor index, the rung's results.
#[derive(Clone, Debug)]
struct Played {
    rung: usize,
    anchor: usize,
    wdl: Wdl,
    command: String,
}

struct Plan {
    game: String,
    engine: String,
    levels: Vec<f64>,
    anchors: Vec<Anchor>,
    games: usize,
    tc: Option<String>,
    timemargin: Option<u64>,
    size: u32,
    concurrency: usize,
    openings: Vec<String>,
    nearest: Option<usize>,
    journal: Option<String>,
    /// Matches per rung and anchor, each from its own draw of openings.
    rounds: usize,
    /// Play nothing: fit what the journal holds (`-fit`).
    fit: bool,
    dry: bool,
}

fn default_engine() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| {
            let t = p.with_file_name("tetrarch");
            t.exists().then(|| t.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "tetrarch".into())
}

/// Where ../shared/tools/build-peers.sh installs Scan 2.0 (it must run in its own folder).
fn scan_dir() -> String {
    let data = std::env::var("XDG_DATA_HOME")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| format!("{}/.local/share", std::env::var("HOME").unwrap_or_default()));
    format!("{data}/tetrarch-peers/scan20")
}

fn default_levels(game: &str) -> Vec<f64> {
    match game {
        "go" => vec![0.0, 4.0, 8.0, 12.0],
        "chess" => vec![0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0],
        "xiangqi" => vec![3.0, 5.0, 6.0, 7.0, 8.0, 9.0, 11.0, 12.0],
        _ => vec![2.0, 4.0, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0],
    }
}

/// The references of a game's default ladder; `engine` is our engine (draughts uses it at a
/// fixed node count as the bottom reference).
fn default_anchors(game: &str, engine: &str) -> Vec<Anchor> {
    let gnugo = |level: u32, elo: Option<f64>| Anchor {
        name: format!("gnugo-{level}"),
        elo,
        expect: None,
        words: vec![
            "cmd=gnugo".into(),
            "arg=--mode".into(),
            "arg=gtp".into(),
            "arg=--level".into(),
            format!("arg={level}"),
        ],
    };
    match game {
        "go" => vec![gnugo(10, Some(1400.0)), gnugo(5, None), gnugo(1, None)],
        // Fairy-Stockfish at six node counts a factor of two to four apart, the one at 2000
        // nodes stating the scale: every rung meets one of them near an even score.
        // (The expected ratings, for -nearest, are the last calibration's fit.)
        "xiangqi" => [
            (500, 1200.0),
            (1000, 1327.0),
            (2000, 1500.0),
            (8000, 1883.0),
            (25000, 2075.0),
            (50000, 2251.0),
        ]
        .iter()
        .map(|&(n, fitted)| Anchor {
            name: format!("fsf-{n}n"),
            elo: (n == 2000).then_some(1500.0),
            expect: (n != 2000).then_some(fitted),
            words: vec![
                "cmd=fairy-stockfish".into(),
                "proto=uci".into(),
                format!("nodes={n}"),
            ],
        })
        .collect(),
        // Scan 2.0 at fixed depths over its first Hub: an outside reference that a fixed
        // depth keeps load-independent; depth 6 scored even with our full engine at 20000
        // nodes, which the provisional scale called 2000, so the scale carries on.
        "draughts" => {
            // Depths 1 to 14 reach above the strongest rung; the weakest rungs lose to depth
            // 1 as well, so our full engine at 100 nodes a move is the bottom reference. The
            // expected ratings (for -nearest) are the last calibration's fit.
            let dir = scan_dir();
            let bottom = Anchor {
                name: "full-100n".into(),
                elo: None,
                expect: Some(876.0),
                words: vec![
                    format!("cmd={engine}"),
                    "arg=hub".into(),
                    "proto=hub".into(),
                    "nodes=100".into(),
                ],
            };
            let scan = [
                (1, 1186.0),
                (2, 1491.0),
                (4, 1818.0),
                (6, 2000.0),
                (8, 2123.0),
                (10, 2168.0),
                (12, 2291.0),
                (14, 2382.0),
            ]
            .iter()
            .map(|&(d, fitted)| Anchor {
                name: format!("scan-d{d}"),
                elo: (d == 6).then_some(2000.0),
                expect: (d != 6).then_some(fitted),
                words: vec![
                    format!("cmd={dir}/scan"),
                    "arg=hub".into(),
                    format!("dir={dir}"),
                    "proto=hub1".into(),
                    format!("depth={d}"),
                ],
            });
            std::iter::once(bottom).chain(scan).collect()
        }
        // Stockfish's whole `UCI_Elo` range, a rung every 250: each level meets two of them
        // near an even score.
        _ => (1350..=2850)
            .step_by(250)
            .map(|e| Anchor {
                name: format!("sf-{e}"),
                elo: Some(e as f64),
                expect: None,
                words: vec![
                    "cmd=stockfish".into(),
                    "option.UCI_LimitStrength=true".into(),
                    format!("option.UCI_Elo={e}"),
                ],
            })
            .collect(),
    }
}

/// The `-engine` words of our engine at a level.
fn rung_words(game: &str, engine: &str, level: f64) -> Vec<String> {
    let name = format!("name=tetrarch-L{level}");
    match game {
        // Fixed playouts by the level: no clock needed.
        "go" => vec![
            format!("cmd={engine}"),
            name,
            "arg=gtp".into(),
            "arg=--quiet".into(),
            "arg=--level".into(),
            format!("arg={level}"),
            "proto=gtp".into(),
        ],
        "draughts" => vec![
            format!("cmd={engine}"),
            name,
            "arg=hub".into(),
            "proto=hub".into(),
            format!("option.skill={}", level.round() as i64),
        ],
        _ => vec![
            format!("cmd={engine}"),
            name,
            "proto=uci".into(),
            format!("option.Skill Level={}", level.round() as i64),
        ],
    }
}

fn parse(args: &[String]) -> Result<Plan, String> {
    let mut game = None;
    let mut engine = None;
    let mut levels = None;
    let mut anchors: Vec<Anchor> = Vec::new();
    let mut plan = Plan {
        game: String::new(),
        engine: String::new(),
        levels: Vec::new(),
        anchors: Vec::new(),
        games: 20,
        tc: None,
        timemargin: None,
        size: 9,
        concurrency: 1,
        openings: Vec::new(),
        nearest: None,
        rounds: 1,
        fit: false,
        journal: None,
        dry: false,
    };
    let mut i = 0;
    let value = |i: &mut usize, opt: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i - 1)
            .cloned()
            .ok_or_else(|| format!("{opt} needs a value"))
    };
    let positive = |i: &mut usize, opt: &str| -> Result<usize, String> {
        value(i, opt)?
            .parse()
            .ok()
            .filter(|&n: &usize| n > 0)
            .ok_or_else(|| format!("{opt} takes a positive whole number"))
    };
    let is_option = |w: &str| w.starts_with('-') && !w.contains('=');
    while i < args.len() {
        let opt = args[i].clone();
        i += 1;
        match opt.as_str() {
            "-help" | "--help" | "-h" => return Err(HELP.into()),
            "-game" => game = Some(value(&mut i, &opt)?),
            "-engine" => engine = Some(value(&mut i, &opt)?),
            "-levels" => {
                let v = value(&mut i, &opt)?;
                let parsed: Result<Vec<f64>, _> = v.split(',').map(|x| x.trim().parse()).collect();
                let l = parsed.map_err(|_| format!("-levels: '{v}' is not a list of numbers"))?;
                if l.is_empty() || l.iter().any(|x| !(0.0..20.0).contains(x)) {
                    return Err("-levels: each level lies in 0..20 (20 is no limit)".into());
                }
                levels = Some(l);
            }
            "-anchor" => {
                let mut a = Anchor {
                    name: String::new(),
                    elo: None,
                    expect: None,
                    words: Vec::new(),
                };
                while i < args.len() && !is_option(&args[i]) {
                    let w = &args[i];
                    i += 1;
                    match w.split_once('=') {
                        Some(("name", n)) => {
                            a.name = n.to_string();
                            a.words.push(w.clone());
                        }
                        Some(("elo", e)) => {
                            a.elo = Some(e.parse().map_err(|_| format!("-anchor: bad elo '{e}'"))?)
                        }
                        Some(("expect", e)) => {
                            a.expect = Some(
                                e.parse()
                                    .map_err(|_| format!("-anchor: bad expect '{e}'"))?,
                            )
                        }
                        Some(_) => a.words.push(w.clone()),
                        None => return Err(format!("-anchor: expected KEY=VALUE, got '{w}'")),
                    }
                }
                if !a.words.iter().any(|w| w.starts_with("cmd=")) {
                    return Err("-anchor needs cmd=PATH".into());
                }
                if a.name.is_empty() {
                    a.name = format!("anchor-{}", anchors.len() + 1);
                    a.words.push(format!("name={}", a.name));
                }
                anchors.push(a);
            }
            "-games" => plan.games = positive(&mut i, &opt)?,
            "-tc" => plan.tc = Some(value(&mut i, &opt)?),
            "-timemargin" => {
                plan.timemargin = Some(
                    value(&mut i, &opt)?
                        .parse()
                        .map_err(|_| "-timemargin takes milliseconds")?,
                )
            }
            "-size" => {
                plan.size = value(&mut i, &opt)?
                    .parse()
                    .map_err(|_| "-size takes a whole number")?
            }
            "-concurrency" => plan.concurrency = positive(&mut i, &opt)?,
            "-openings" => {
                while i < args.len() && !is_option(&args[i]) {
                    plan.openings.push(args[i].clone());
                    i += 1;
                }
            }
            "-nearest" => plan.nearest = Some(positive(&mut i, &opt)?),
            "-journal" => plan.journal = Some(value(&mut i, &opt)?),
            "-rounds" => plan.rounds = positive(&mut i, &opt)?,
            "-fit" => plan.fit = true,
            "-dry" => plan.dry = true,
            _ => return Err(format!("unknown option '{opt}' (see -help)")),
        }
    }
    let game = game.ok_or("-game chess|xiangqi|go|draughts is required")?;
    if !["chess", "xiangqi", "go", "draughts"].contains(&game.as_str()) {
        return Err(format!("-game: unknown game '{game}'"));
    }
    plan.engine = engine.unwrap_or_else(default_engine);
    plan.levels = levels.unwrap_or_else(|| default_levels(&game));
    plan.anchors = if anchors.is_empty() {
        default_anchors(&game, &plan.engine)
    } else {
        anchors
    };
    for a in &mut plan.anchors {
        if !a.words.iter().any(|w| w.starts_with("name=")) {
            a.words.push(format!("name={}", a.name));
        }
    }
    if plan.anchors.iter().all(|a| a.elo.is_none()) {
        return Err("at least one -anchor needs elo=E: it defines the scale".into());
    }
    plan.game = game;
    Ok(plan)
}

/// The game's Elo table as the source holds it now (Go's for the plan's board size).
fn current_table(plan: &Plan) -> tetrarch::strength::EloTable {
    if plan.game == "go" {
        return tetrarch::games::go::strength::table(plan.size as usize);
    }
    tetrarch::games::GameKind::parse(&plan.game)
        .map(|g| g.elo_table())
        .unwrap_or(tetrarch::games::chess::strength::ELO)
}

/// The name of that table's constant in the source.
fn table_name(plan: &Plan) -> &'static str {
    if plan.game == "go" && tetrarch::games::go::board::is_big_size(plan.size as usize) {
        "ELO_19X19"
    } else {
        "ELO"
    }
}

/// The anchors (indices) a rung at `level` plays: all of them, or with `-nearest K` the K
/// nearest to the rung's expected Elo among those with a stated or expected rating, plus every
/// anchor with neither.
fn pairing(plan: &Plan, level: f64) -> Vec<usize> {
    let all: Vec<usize> = (0..plan.anchors.len()).collect();
    let Some(k) = plan.nearest else {
        return all;
    };
    let expected = expected_elo(&current_table(plan), level);
    let guess = |a: usize| plan.anchors[a].elo.or(plan.anchors[a].expect);
    let mut rated: Vec<(f64, usize)> = all
        .iter()
        .filter_map(|&a| guess(a).map(|e| ((e - expected).abs(), a)))
        .collect();
    rated.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut chosen: Vec<usize> = rated.iter().take(k).map(|&(_, a)| a).collect();
    chosen.extend(all.iter().filter(|&&a| guess(a).is_none()));
    chosen.sort_unstable();
    chosen
}

/// The Elo a level is expected to play at, for pairing: the table's, and beyond its ends the
/// line through its two outermost anchors on that side (the table itself clamps there, which
/// would pair a rung above the table with the references of the table's top).
fn expected_elo(table: &tetrarch::strength::EloTable, level: f64) -> f64 {
    let a = table.anchors;
    let line = |(e0, l0): (i32, f64), (e1, l1): (i32, f64)| {
        f64::from(e0) + f64::from(e1 - e0) * (level - l0) / (l1 - l0).max(1e-9)
    };
    if a.len() >= 2 {
        let n = a.len();
        if level > a[n - 1].1 {
            return line(a[n - 2], a[n - 1]);
        }
        if level < a[0].1 {
            return line(a[0], a[1]);
        }
    }
    f64::from(table.elo(level))
}

/// One journal line: level, anchor, wins, draws, losses and the match's command, tab-separated
/// (the command holds no tab: it is shell-quoted words joined by spaces).
fn journal_line(level: f64, anchor: &str, wdl: &Wdl, command: &str) -> String {
    format!(
        "{level}\t{anchor}\t{}\t{}\t{}\t{command}\n",
        wdl.wins, wdl.draws, wdl.losses
    )
}

/// One finished match of a journal.
struct JournalEntry {
    level: f64,
    anchor: String,
    wdl: Wdl,
    command: String,
}

/// The matches a journal holds. Lines that do not parse (a line cut short by an interruption)
/// are skipped: their match is simply played again.
fn journal_entries(text: &str) -> Vec<JournalEntry> {
    let mut entries = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.splitn(6, '\t').collect();
        if f.len() < 6 {
            continue;
        }
        let n: Option<Vec<u64>> = f[2..5].iter().map(|x| x.parse().ok()).collect();
        if let (Some(n), Ok(level)) = (n, f[0].parse()) {
            entries.push(JournalEntry {
                level,
                anchor: f[1].to_string(),
                wdl: Wdl::new(n[0], n[1], n[2]),
                command: f[5].to_string(),
            });
        }
    }
    entries
}

/// The results a journal holds, by command.
fn read_journal(text: &str) -> std::collections::HashMap<String, Wdl> {
    journal_entries(text)
        .into_iter()
        .map(|e| (e.command, e.wdl))
        .collect()
}

/// For `-fit`: every journaled match of a rung and an anchor of the plan, found by level and
/// anchor name whatever its games, rounds or openings (a ladder played in parts may give each
/// part its own).
fn journaled_by_name(plan: &Plan, entries: Vec<JournalEntry>) -> Vec<Played> {
    entries
        .into_iter()
        .filter_map(|e| {
            let rung = plan.levels.iter().position(|&l| l == e.level)?;
            let anchor = plan.anchors.iter().position(|a| a.name == e.anchor)?;
            Some(Played {
                rung,
                anchor,
                wdl: e.wdl,
                command: e.command,
            })
        })
        .collect()
}

/// The match-runner words of one rung-against-anchor match.
fn match_words(plan: &Plan, level: f64, anchor: &Anchor, round: usize) -> Vec<String> {
    let mut w = vec!["-game".to_string(), plan.game.clone()];
    if plan.game == "go" {
        w.push(format!("size={}", plan.size));
        w.push("komi=7".into());
    }
    w.push("-engine".into());
    w.extend(rung_words(&plan.game, &plan.engine, level));
    if plan.game != "go" && plan.tc.is_none() {
        // The level's own node budget binds; this only keeps the clock out of the game.
        w.push("nodes=1000000000".into());
    }
    w.push("-engine".into());
    w.extend(anchor.words.iter().cloned());
    w.extend(["-games", &plan.games.to_string(), "-repeat"].map(String::from));
    w.extend(["-concurrency".into(), plan.concurrency.to_string()]);
    w.extend([
        "-tc".into(),
        plan.tc.clone().unwrap_or_else(|| "inf".into()),
    ]);
    w.extend(["-ratinginterval".into(), "0".into()]);
    if plan.game == "go" {
        // GNU Go 3.8 now and then crashes or stops answering in a long 19x19 game: the game
        // goes to the other side, as in any match, and the match goes on with a new process.
        w.push("-recover".into());
    }
    if let Some(ms) = plan.timemargin {
        w.extend(["-timemargin".into(), ms.to_string()]);
    }
    if plan.game == "go" {
        // Room for a whole game (the limit counts each side's moves, and a drawn-out game is
        // a draw): 200 each up to 13x13, a point's worth each on bigger boards (a 19x19 game
        // takes about 250-350 moves in all).
        let moves = (plan.size * plan.size).max(200);
        w.extend(["-maxmoves".into(), moves.to_string()]);
    } else {
        w.extend(["-maxmoves".into(), "300".into()]);
    }
    if !plan.openings.is_empty() {
        w.push("-openings".into());
        w.extend(plan.openings.iter().cloned());
    }
    if round > 1 {
        // Another draw of openings (and so other games); round 1 keeps the runner's default
        // seed and its words, so the matches a journal holds from before rounds still count.
        w.extend(["-srand".into(), round.to_string()]);
    }
    w
}

/// Shell-quoted words.
fn shell(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=./:,+".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Joint maximum-likelihood ratings. Players `0..fixed.len()`; `fixed[i]` holds a stated
/// rating. `games` are `(a, b, points of a, games)`. Players the results do not connect to a
/// stated one keep `None`.
pub fn fit_ratings(fixed: &[Option<f64>], games: &[(usize, usize, f64, f64)]) -> Vec<Option<f64>> {
    let n = fixed.len();
    let mut r: Vec<f64> = fixed.iter().map(|f| f.unwrap_or(1500.0)).collect();
    // Connected to a stated rating?
    let mut known: Vec<bool> = fixed.iter().map(Option::is_some).collect();
    loop {
        let mut changed = false;
        for &(a, b, _, g) in games {
            if g > 0.0 && known[a] != known[b] {
                known[a] = true;
                known[b] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Scores of 0 or 1 have no finite maximum: half a point of prior towards a draw against
    // each opponent keeps every rating finite (a common, small regularisation).
    let k = 10f64.ln() / 400.0;
    for _ in 0..2000 {
        let mut delta = 0.0f64;
        for p in 0..n {
            if fixed[p].is_some() || !known[p] {
                continue;
            }
            // Newton step on p's rating: sum of (actual - expected) over its games.
            let (mut grad, mut hess) = (0.0, 0.0);
            for &(a, b, pts, g) in games {
                let (opp, mine) = if a == p {
                    (b, pts)
                } else if b == p {
                    (a, g - pts)
                } else {
                    continue;
                };
                let e = elo_to_score(r[p] - r[opp]);
                grad += (mine + 0.5) - (g + 1.0) * e;
                hess += (g + 1.0) * e * (1.0 - e) * k;
            }
            if hess > 0.0 {
                let step = (grad / hess).clamp(-200.0, 200.0);
                r[p] += step;
                delta = delta.max(step.abs());
            }
        }
        if delta < 0.01 {
            break;
        }
    }
    (0..n).map(|p| known[p].then_some(r[p])).collect()
}

/// Makes the points increasing in Elo as the level rises (pool adjacent violators, weighted
/// by games), so the table can be read both ways.
pub fn monotone(points: &[(f64, f64, f64)]) -> Vec<(f64, f64)> {
    // (level, elo, weight), sorted by level.
    let mut blocks: Vec<(f64, f64, f64, usize)> = Vec::new(); // (sum level*w, sum elo*w, w, count)
    for &(l, e, w) in points {
        blocks.push((l * w, e * w, w, 1));
        while blocks.len() > 1 {
            let m = blocks.len();
            let (a, b) = (blocks[m - 2], blocks[m - 1]);
            if a.1 / a.2 < b.1 / b.2 {
                break;
            }
            blocks.pop();
            blocks[m - 2] = (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3);
        }
    }
    blocks.iter().map(|b| (b.0 / b.2, b.1 / b.2)).collect()
}

pub fn main(args: &[String]) -> Result<(), String> {
    let plan = match parse(args) {
        Ok(p) => p,
        Err(msg) if msg == HELP => {
            print!("{HELP}");
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let journal_text = match &plan.journal {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read the journal {path}: {e}")),
        },
        None => String::new(),
    };
    if plan.fit {
        if plan.journal.is_none() {
            return Err("-fit needs -journal FILE".into());
        }
        let played = journaled_by_name(&plan, journal_entries(&journal_text));
        print!("{}", render(&plan, &played));
        return Ok(());
    }
    let journaled = read_journal(&journal_text);
    if plan.dry {
        // Every scheduled match, as if the journal were empty; nothing is played.
        gather(&plan, &Default::default(), |_, _, _, command| {
            println!("{command}");
            Ok(Wdl::new(0, 0, 0))
        })?;
        return Ok(());
    }
    let played = gather(&plan, &journaled, |level, anchor, words, command| {
        let wdl = play(words, level, &anchor.name, command)?;
        if let Some(path) = &plan.journal {
            let line = journal_line(level, &anchor.name, &wdl, command);
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()))
                .map_err(|e| format!("cannot write the journal {path}: {e}"))?;
        }
        Ok(wdl)
    })?;
    print!("{}", render(&plan, &played));
    Ok(())
}

/// Every result of the plan: the scheduled matches, from the journal where it holds them and
/// played (by `play`: level, anchor, match words, command) where not, and besides them every
/// match the journal holds for a rung and anchor of the plan that is not scheduled now (one
/// `-nearest` would not pair, or a round past `-rounds`): a played match is evidence either way.
fn gather(
    plan: &Plan,
    journaled: &std::collections::HashMap<String, Wdl>,
    mut play: impl FnMut(f64, &Anchor, &[String], &str) -> Result<Wdl, String>,
) -> Result<Vec<Played>, String> {
    let mut played = Vec::new();
    for (r, &level) in plan.levels.iter().enumerate() {
        let paired = pairing(plan, level);
        for (a, anchor) in plan.anchors.iter().enumerate() {
            for round in 1.. {
                let w = match_words(plan, level, anchor, round);
                let command = format!("tetrarch-tune match {}", shell(&w));
                let known = journaled.get(&command).copied();
                let scheduled = paired.contains(&a) && round <= plan.rounds;
                let wdl = match (known, scheduled) {
                    (Some(wdl), _) => {
                        eprintln!(
                            "calibrate: level {level} vs {}: +{} ={} -{} (from the journal)",
                            anchor.name, wdl.wins, wdl.draws, wdl.losses
                        );
                        wdl
                    }
                    (None, true) => play(level, anchor, &w, &command)?,
                    (None, false) if round > plan.rounds => break,
                    (None, false) => continue,
                };
                played.push(Played {
                    rung: r,
                    anchor: a,
                    wdl,
                    command,
                });
            }
        }
    }
    Ok(played)
}

/// Plays one rung-against-anchor match (`words` for the match runner) and returns the rung's
/// results.
fn play(words: &[String], level: f64, anchor: &str, command: &str) -> Result<Wdl, String> {
    eprintln!("calibrate: level {level} vs {anchor}: {command}");
    let config = cli::parse(words)?;
    let mut report = Vec::new();
    let summary = runner::run_match(&config, &mut report)?;
    if summary.aborted {
        return Err(format!(
            "the match of level {level} against {anchor} failed:\n{}",
            String::from_utf8_lossy(&report)
        ));
    }
    let wdl = summary.wdl;
    eprintln!(
        "calibrate: level {level} vs {anchor}: +{} ={} -{}",
        wdl.wins, wdl.draws, wdl.losses
    );
    Ok(wdl)
}

/// A match's Elo difference with its 95% interval, in words where it has no finite value.
fn diff_text(wdl: &Wdl) -> String {
    let n = wdl.games() as f64;
    if n == 0.0 {
        return "-".into();
    }
    if wdl.points() >= n {
        return "no finite estimate (all won)".into();
    }
    if wdl.points() <= 0.0 {
        return "no finite estimate (all lost)".into();
    }
    // (+ 0.0 turns the -0 of an even score into 0.)
    match elo_trinomial(wdl).map(|e| EloEstimate {
        elo: e.elo + 0.0,
        ..e
    }) {
        Some(e) if e.error.is_finite() => format!("{:+.0} +/- {:.0}", e.elo, e.error),
        Some(e) => format!("{:+.0} (interval unbounded)", e.elo),
        None => "-".into(),
    }
}

/// The fitted table and the match table.
fn render(plan: &Plan, played: &[Played]) -> String {
    let rungs = plan.levels.len();
    let mut fixed: Vec<Option<f64>> = vec![None; rungs];
    fixed.extend(plan.anchors.iter().map(|a| a.elo));
    let games: Vec<(usize, usize, f64, f64)> = played
        .iter()
        .map(|p| {
            (
                p.rung,
                rungs + p.anchor,
                p.wdl.points(),
                p.wdl.games() as f64,
            )
        })
        .collect();
    let ratings = fit_ratings(&fixed, &games);
    let k = 10f64.ln() / 400.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nRatings (95% interval from each player's own games):"
    );
    let mut points = Vec::new();
    for (r, &level) in plan.levels.iter().enumerate() {
        let info: f64 = played
            .iter()
            .filter(|p| p.rung == r)
            .filter_map(|p| {
                let opp = ratings[rungs + p.anchor]?;
                let e = elo_to_score(ratings[r]? - opp);
                Some(p.wdl.games() as f64 * e * (1.0 - e) * k * k)
            })
            .sum();
        let n: u64 = played
            .iter()
            .filter(|p| p.rung == r)
            .map(|p| p.wdl.games())
            .sum();
        let pts: f64 = played
            .iter()
            .filter(|p| p.rung == r)
            .map(|p| p.wdl.points())
            .sum();
        // A rung that won or lost everything is only bounded: its fitted rating is the
        // regularisation's, so it stays out of the table.
        let one_sided = pts <= 0.0 || pts >= n as f64;
        match ratings[r] {
            Some(e) if one_sided => {
                let (bound, how) = if pts <= 0.0 {
                    ("below", "lost")
                } else {
                    ("above", "won")
                };
                let _ = writeln!(
                    out,
                    "  level {level:>5}: {bound} {e:.0} (every game {how}; left out of the table)"
                );
            }
            Some(e) => {
                let err = if info > 0.0 {
                    1.96 / info.sqrt()
                } else {
                    f64::INFINITY
                };
                let _ = writeln!(out, "  level {level:>5}: {e:7.0} +/- {err:.0}  ({n} games)");
                points.push((level, e, n as f64));
            }
            None => {
                let _ = writeln!(out, "  level {level:>5}: not connected to a stated rating");
            }
        }
    }
    for (a, anchor) in plan.anchors.iter().enumerate() {
        let how = if anchor.elo.is_some() {
            "stated"
        } else {
            "fitted"
        };
        if let Some(e) = ratings[rungs + a] {
            let _ = writeln!(out, "  {:>11}: {e:7.0} ({how})", anchor.name);
        }
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let table = monotone(&points);
    let _ = writeln!(
        out,
        "\nThe table for engine/src/games/{}/strength.rs:\n",
        plan.game
    );
    let _ = writeln!(
        out,
        "pub const {}: EloTable = EloTable {{",
        table_name(plan)
    );
    let anchors: Vec<String> = table
        .iter()
        .map(|(l, e)| format!("({}, {:.1})", e.round() as i64, l))
        .collect();
    let _ = writeln!(out, "    anchors: &[{}],", anchors.join(", "));
    let stated: Vec<String> = plan
        .anchors
        .iter()
        .filter_map(|a| a.elo.map(|e| format!("{} = {e:.0}", a.name)))
        .collect();
    let _ = writeln!(out, "    scale: \"{}\",", stated.join(", "));
    let _ = writeln!(out, "}};");
    if table.len() < 2 {
        let _ = writeln!(
            out,
            "(fewer than two rungs of distinct strength: not a usable table; widen -levels)"
        );
    }
    let _ = writeln!(out, "\nREADME table:\n");
    let _ = writeln!(
        out,
        "| Setting | Opponent | Games | Score (W-D-L) | Elo difference (95%) | Command |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for p in played {
        let level = plan.levels[p.rung];
        let a = &plan.anchors[p.anchor];
        let opp = match a.elo {
            Some(e) => format!("{} ({e:.0}, stated)", a.name),
            None => match ratings[rungs + p.anchor] {
                Some(e) => format!("{} ({e:.0}, fitted)", a.name),
                None => a.name.clone(),
            },
        };
        let diff = diff_text(&p.wdl);
        let _ = writeln!(
            out,
            "| level {level} | {opp} | {} | {:.1} ({}-{}-{}) | {diff} | `{}` |",
            p.wdl.games(),
            p.wdl.points(),
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            p.command
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_fitted_rating_matches_its_score() {
        // 75% against a stated 1400 is +191.
        let r = fit_ratings(&[None, Some(1400.0)], &[(0, 1, 300.0, 400.0)]);
        let e = r[0].unwrap();
        assert!((e - 1590.0).abs() < 5.0, "{e}");
        // A reference rated only through a rung: rung scores 50% against both.
        let r = fit_ratings(
            &[None, Some(1400.0), None, None],
            &[(0, 1, 50.0, 100.0), (0, 2, 50.0, 100.0)],
        );
        assert!((r[2].unwrap() - 1400.0).abs() < 1.0);
        assert_eq!(r[3], None, "no games, no rating");
        // A clean sweep stays finite.
        let r = fit_ratings(&[None, Some(1400.0)], &[(0, 1, 20.0, 20.0)]);
        assert!(r[0].unwrap().is_finite() && r[0].unwrap() > 1700.0);
    }

    #[test]
    fn differences_are_worded_where_they_have_no_value() {
        assert_eq!(
            diff_text(&Wdl::new(2, 0, 0)),
            "no finite estimate (all won)"
        );
        assert_eq!(
            diff_text(&Wdl::new(0, 0, 3)),
            "no finite estimate (all lost)"
        );
        assert!(diff_text(&Wdl::new(1, 0, 1)).starts_with("+0"));
        assert!(diff_text(&Wdl::new(30, 10, 10)).contains("+/-"));
    }

    #[test]
    fn the_table_is_made_increasing() {
        let t = monotone(&[(0.0, 900.0, 10.0), (4.0, 1200.0, 10.0), (8.0, 1100.0, 10.0)]);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0], (0.0, 900.0));
        assert_eq!(t[1], (6.0, 1150.0));
    }

    #[test]
    fn plans_default_per_game_and_check_their_words() {
        let p = parse(&args("-game go -engine /x/tetrarch -games 4")).unwrap();
        assert_eq!(p.anchors.len(), 3);
        assert_eq!(p.anchors[0].elo, Some(1400.0));
        let w = match_words(&p, 4.0, &p.anchors[0], 1);
        let c = cli::parse(&w).expect("the runner accepts the words");
        assert_eq!(c.games, 4);
        assert!(w.contains(&"arg=--level".to_string()));
        assert!(w.windows(2).any(|x| x[0] == "-maxmoves" && x[1] == "200"));
        // A second round draws other openings; the first keeps the runner's default seed.
        assert!(!w.contains(&"-srand".to_string()));
        let w2 = cli::parse(&match_words(&p, 4.0, &p.anchors[0], 2)).unwrap();
        assert_eq!((c.seed, w2.seed), (1, 2));
        let big = parse(&args("-game go -size 19 -rounds 3")).unwrap();
        assert_eq!(big.rounds, 3);
        let w = match_words(&big, 4.0, &big.anchors[0], 1);
        assert!(w.windows(2).any(|x| x[0] == "-maxmoves" && x[1] == "361"));
        assert!(parse(&args("-game go -rounds 0")).is_err());
        let p = parse(&args(
            "-game xiangqi -levels 1,3 -anchor cmd=fsf elo=1500 nodes=500",
        ))
        .unwrap();
        assert_eq!(p.levels, vec![1.0, 3.0]);
        assert_eq!(p.anchors[0].elo, Some(1500.0));
        cli::parse(&match_words(&p, 3.0, &p.anchors[0], 1)).expect("xiangqi words");
        let p = parse(&args("-game chess -tc 10+0.1 -timemargin 100")).unwrap();
        assert_eq!(p.anchors.len(), 7);
        let w = match_words(&p, 6.0, &p.anchors[0], 1);
        cli::parse(&w).expect("chess words");
        assert!(w.windows(2).any(|x| x[0] == "-timemargin" && x[1] == "100"));
        assert!(parse(&args("-game shogi")).is_err());
        assert!(parse(&args("-game go -levels 25")).is_err());
        assert!(
            parse(&args("-game go -anchor cmd=gnugo")).is_err(),
            "no stated elo"
        );
        assert!(parse(&args("-game go -bogus")).is_err());
    }

    #[test]
    fn nearest_pairs_each_rung_with_the_anchors_around_its_expected_elo() {
        let p = parse(&args("-game chess -tc 5+0.05")).unwrap();
        assert_eq!(pairing(&p, 2.0).len(), 7, "every anchor by default");
        let p = parse(&args("-game chess -tc 5+0.05 -nearest 2")).unwrap();
        let elos = |level: f64| -> Vec<f64> {
            pairing(&p, level)
                .iter()
                .map(|&a| p.anchors[a].elo.unwrap())
                .collect()
        };
        let low = current_table(&p).elo(2.0) as f64;
        let high = current_table(&p).elo(19.0) as f64;
        for (level, expected) in [(2.0, low), (19.0, high)] {
            let chosen = elos(level);
            assert_eq!(chosen.len(), 2);
            let worst = chosen
                .iter()
                .map(|e| (e - expected).abs())
                .fold(0.0, f64::max);
            let skipped = p.anchors.iter().filter_map(|a| a.elo);
            assert!(
                skipped
                    .filter(|e| !chosen.contains(e))
                    .all(|e| (e - expected).abs() >= worst),
                "level {level}: {chosen:?} are not the nearest to {expected}"
            );
        }
        // Unstated anchors are rated through the rungs, so they always play.
        let p = parse(&args("-game go -nearest 1")).unwrap();
        assert_eq!(pairing(&p, 4.0), vec![0, 1, 2]);
        assert!(parse(&args("-game go -nearest 0")).is_err());
        // An expected rating pairs an unstated anchor like a stated one.
        let p = parse(&args(
            "-game xiangqi -nearest 1 -anchor name=far cmd=a expect=9000 \
             -anchor name=near cmd=b elo=1500 -anchor name=free cmd=c",
        ))
        .unwrap();
        assert_eq!(p.anchors[0].expect, Some(9000.0));
        assert_eq!(p.anchors[0].elo, None, "expect= never states a rating");
        assert_eq!(pairing(&p, 6.0), vec![1, 2], "the far guess is skipped");
        assert!(parse(&args("-game go -anchor cmd=x elo=1 expect=abc")).is_err());
    }

    #[test]
    fn pairing_extrapolates_beyond_the_table() {
        let t = tetrarch::strength::EloTable {
            anchors: &[(1000, 2.0), (1400, 6.0), (1800, 10.0)],
            scale: "test",
        };
        assert_eq!(expected_elo(&t, 6.0), 1400.0);
        assert_eq!(expected_elo(&t, 14.0), 2200.0);
        assert_eq!(expected_elo(&t, 0.0), 800.0);
    }

    #[test]
    fn journaled_matches_count_and_only_the_missing_are_played() {
        let p = parse(&args(
            "-game xiangqi -levels 3 -nearest 1 -rounds 2 \
             -anchor name=a elo=1150 cmd=x nodes=1 -anchor name=b elo=2500 cmd=x nodes=2",
        ))
        .unwrap();
        let command = |a: usize, round: usize| {
            format!(
                "tetrarch-tune match {}",
                shell(&match_words(&p, 3.0, &p.anchors[a], round))
            )
        };
        let mut sched = Vec::new();
        gather(&p, &Default::default(), |_, _, _, c| {
            sched.push(c.to_string());
            Ok(Wdl::new(0, 0, 0))
        })
        .unwrap();
        assert_eq!(
            sched,
            vec![command(0, 1), command(0, 2)],
            "the nearest anchor, two rounds"
        );
        // The journal holds a's first round, b's first (b is not paired now) and a's third
        // (past -rounds): all three count, and only a's second round is played.
        let mut journal = std::collections::HashMap::new();
        journal.insert(command(0, 1), Wdl::new(1, 0, 1));
        journal.insert(command(1, 1), Wdl::new(0, 0, 2));
        journal.insert(command(0, 3), Wdl::new(2, 0, 0));
        let mut calls = Vec::new();
        let got = gather(&p, &journal, |level, anchor, _, c| {
            calls.push((level, anchor.name.clone(), c.to_string()));
            Ok(Wdl::new(0, 2, 0))
        })
        .unwrap();
        assert_eq!(calls, vec![(3.0, "a".to_string(), command(0, 2))]);
        let mut seen: Vec<(usize, u64, u64, u64)> = got
            .iter()
            .map(|x| (x.anchor, x.wdl.wins, x.wdl.draws, x.wdl.losses))
            .collect();
        seen.sort_unstable();
        assert_eq!(
            seen,
            vec![(0, 0, 2, 0), (0, 1, 0, 1), (0, 2, 0, 0), (1, 0, 0, 2)]
        );
        // -fit plays nothing and takes every journaled match of its levels and anchor names,
        // whatever its games: here a's two rounds, and b's match of another length.
        let fit = parse(&args(
            "-game xiangqi -levels 3 -fit -journal j \
             -anchor name=a elo=1150 cmd=x nodes=1 -anchor name=b elo=2500 cmd=x nodes=2",
        ))
        .unwrap();
        assert!(fit.fit);
        let mut text = journal_line(3.0, "a", &Wdl::new(1, 0, 1), &command(0, 1));
        text += &journal_line(3.0, "a", &Wdl::new(2, 0, 0), &command(0, 3));
        text += &journal_line(3.0, "b", &Wdl::new(0, 1, 5), "tetrarch-tune match -games 6");
        text += &journal_line(4.0, "a", &Wdl::new(3, 0, 0), "another level");
        text += &journal_line(3.0, "c", &Wdl::new(3, 0, 0), "another anchor");
        let got = journaled_by_name(&fit, journal_entries(&text));
        let mut seen: Vec<(usize, u64)> = got.iter().map(|x| (x.anchor, x.wdl.games())).collect();
        seen.sort_unstable();
        assert_eq!(seen, vec![(0, 2), (0, 2), (1, 6)]);
    }

    #[test]
    fn a_journal_gives_back_what_was_written_and_skips_cut_lines() {
        let command = "tetrarch-tune match -game xiangqi -engine 'name=a b' -games 4";
        let mut text = journal_line(6.0, "fsf-2000n", &Wdl::new(3, 4, 5), command);
        text += &journal_line(2.5, "x", &Wdl::new(0, 0, 1), "other");
        text += "9\tcut\t1\t2";
        let done = read_journal(&text);
        assert_eq!(done.len(), 2);
        assert_eq!(done[command], Wdl::new(3, 4, 5));
        assert_eq!(done["other"], Wdl::new(0, 0, 1));
    }
}
