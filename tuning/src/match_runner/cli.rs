//! `tetrarch-tune match` arguments, in cutechess-cli's style.
//!
//! Scheme: options are single-dash words; some take one value (`-games 10`), some a list of
//! `key=value` words up to the next option (`-engine cmd=... name=...`, `-sprt elo0=0 ...`).
//! `-each` settings apply to every engine before its own. Everything is checked here and turned
//! into a [`MatchConfig`]; errors name the option and the accepted forms.

use std::time::Duration;

use super::drivers::{EngineConfig, Protocol};
use super::game::{DrawAdjudication, ResignAdjudication};
use super::journal::JournalSpec;
use super::openings::BookFormat;
use super::rules::GameKind;
use super::runner::{BookSpec, MatchConfig};
use super::tc::TimeControl;
use super::tournament::Format;
use crate::stats::{Penta, Sprt, SprtModel};

pub const HELP: &str = "\
tetrarch-tune match: engine-vs-engine matches and tournaments for chess, xiangqi, Go and
international draughts, over UCI, UCCI, GTP, Hub and DXP, with a referee that checks every
move with Tetrarch's own rules.

Usage: tetrarch-tune match -engine cmd=PATH [KEY=VALUE...] -engine ... [OPTIONS]

Engines (repeat -engine for each; -each applies to all):
  -engine cmd=PATH [name=NAME] [proto=uci|ucci|gtp|hub|hub1|dxp] [arg=ARG]... [dir=DIR]
          [option.NAME=VALUE]... [initstr=LINE]... [tc=TC] [st=SEC] [nodes=N] [depth=N]
          [timemargin=MS] [stderr=FILE] [rating=R] [ranks=0|1] [host=H] [port=P]
      proto defaults to the game's usual protocol (chess uci, xiangqi ucci, go gtp,
      draughts hub; hub1 is Scan 2.0's first Hub, depth=N or a clock). option.NAME=VALUE
      becomes setoption (UCI/UCCI), set-param (Hub), 'set NAME VALUE' (hub1) or the
      command 'NAME VALUE' (GTP). ranks=1: a xiangqi UCI engine writes ranks 1-10
      (Fairy-Stockfish; detected from its UCI_Variant option unless given). proto=dxp: the
      runner connects to host:port (default 127.0.0.1:27531) where the engine serves DXP;
      '{port}' in arg= is replaced by the port (offset by the worker number).
  -each KEY=VALUE...          settings for every engine

Game and time:
  -game chess|xiangqi|go|draughts [size=N] [komi=K]   (Go: default size 19, komi 7.5)
  -tc TC                      40/60+0.6 | 10+0.1 | 60 | st=0.5 | nodes=N | depth=N | inf |
                              byoyomi=MAIN+PERIODxN | canadian=MAIN+PERIOD/STONES (seconds)
  -timemargin MS              extra time before a late move loses on time (default 0)
  -stalltimeout SEC           wait for an engine without a clock (default 60)

Schedule:
  -tournament round-robin|gauntlet   (default round-robin)
  -games N                    games per encounter per round (default 1)
  -rounds N                   rounds (default 1)
  -repeat                     play each opening twice with colours swapped (pairs)
  -openings file=F [format=epd|pgn|sgf|pdn] [order=random|sequential] [plies=N] [start=N]
  -srand N                    seed for random opening order (default 1)
  -concurrency N              games in parallel (default 1)

Results:
  -pgnout FILE | -sgfout FILE | -pdnout FILE
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]
       [prior=A,B,C,D,E]      with -repeat: the Ptnml(0-2) pair counts of earlier runs of the
                              same test, counted in its LLR, to go on with a test that one
                              run could not finish
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N                 draw after N moves by each side
  -bitbases DIR               draughts: adjudicate positions the endgame tables in DIR hold
                              (tetrarch-tune bitbase writes them)
  -recover                    restart a crashed or hung engine and carry on
  -resume FILE                a journal of the finished games: run the same command again
                              after a stop and it counts them and plays only the rest (the
                              other arguments must match, but for -concurrency and outputs)
  -ratinginterval N           print standings every N games (default 10; 0 = never)
  -ratingk K                  K of the CCA rating method (default 10)
  -event NAME                 event name in game records
  -debug                      print all engine traffic to stderr
";

/// Parses the arguments after `match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut i = 0;
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut kind = None;
    let mut size = None;
    let mut komi = None;
    let mut config = MatchConfig::new(GameKind::Chess);
    let mut bitbases: Option<String> = None;
    let mut margin = 0u64;

    // The `key=value` words after an option.
    let take_pairs = |i: &mut usize| -> Result<Vec<(String, String)>, String> {
        let mut v = Vec::new();
        while *i < args.len() && !is_option(&args[*i]) {
            let w = &args[*i];
            let (k, val) = w
                .split_once('=')
                .ok_or_else(|| format!("expected KEY=VALUE, got '{w}'"))?;
            v.push((k.to_string(), val.to_string()));
            *i += 1;
        }
        Ok(v)
    };
    let take_value = |i: &mut usize, opt: &str| -> Result<String, String> {
        if *i < args.len() && !is_option(&args[*i]) {
            *i += 1;
            Ok(args[*i - 1].clone())
        } else {
            Err(format!("{opt} needs a value"))
        }
    };
    let num = |s: &str, opt: &str| -> Result<u64, String> {
        s.parse()
            .map_err(|_| format!("{opt}: '{s}' is not a whole number"))
    };
    let float = |s: &str, opt: &str| -> Result<f64, String> {
        s.parse()
            .map_err(|_| format!("{opt}: '{s}' is not a number"))
    };

    while i < args.len() {
        let opt = args[i].clone();
        i += 1;
        match opt.trim_start_matches('-') {
            "engine" => engines.push(take_pairs(&mut i)?),
            "each" => each.extend(take_pairs(&mut i)?),
            "game" | "variant" => {
                let v = take_value(&mut i, &opt)?;
                kind = Some(GameKind::parse(&v)?);
                for (k, v) in take_pairs(&mut i)? {
                    match k.as_str() {
                        "size" | "boardsize" => size = Some(num(&v, "-game size")? as u32),
                        "komi" => komi = Some(float(&v, "-game komi")?),
                        _ => return Err(format!("-game: unknown setting '{k}' (size, komi)")),
                    }
                }
            }
            "boardsize" => size = Some(num(&take_value(&mut i, &opt)?, &opt)? as u32),
            "komi" => komi = Some(float(&take_value(&mut i, &opt)?, &opt)?),
            "tc" => config.tc = Some(TimeControl::parse(&take_value(&mut i, &opt)?)?),
            "timemargin" => margin = num(&take_value(&mut i, &opt)?, &opt)?,
            "stalltimeout" => {
                config.stall_timeout =
                    Duration::from_secs_f64(float(&take_value(&mut i, &opt)?, &opt)?.max(0.001))
            }
            "tournament" => config.format = Format::parse(&take_value(&mut i, &opt)?)?,
            "games" => config.games = num(&take_value(&mut i, &opt)?, &opt)?.max(1) as usize,
            "rounds" => config.rounds = num(&take_value(&mut i, &opt)?, &opt)?.max(1) as usize,
            "repeat" => {
                config.repeat = true;
                // cutechess accepts `-repeat N`; only pairs (2) are supported.
                if i < args.len() && !is_option(&args[i]) && args[i].parse::<u32>().is_ok() {
                    if args[i] != "2" {
                        return Err("-repeat: only pairs (2) are supported".into());
                    }
                    i += 1;
                }
            }
            "openings" => {
                let mut file = None;
                let mut format = None;
                let mut random = false;
                let mut plies = None;
                let mut start = 1;
                for (k, v) in take_pairs(&mut i)? {
                    match k.as_str() {
                        "file" => file = Some(v),
                        "format" => format = Some(BookFormat::parse(&v)?),
                        "order" => {
                            random = match v.as_str() {
                                "random" => true,
                                "sequential" => false,
                                _ => return Err("-openings order=random|sequential".into()),
                            }
                        }
                        "plies" => plies = Some(num(&v, "-openings plies")? as usize),
                        "start" => start = num(&v, "-openings start")?.max(1) as usize,
                        "policy" => {}
                        _ => return Err(format!("-openings: unknown setting '{k}'")),
                    }
                }
                let file = file.ok_or("-openings needs file=")?;
                let format = match format {
                    Some(f) => f,
                    None => {
                        let ext = file.rsplit('.').next().unwrap_or("");
                        BookFormat::parse(ext).map_err(|_| {
                            format!("-openings: give format= (cannot tell from '{file}')")
                        })?
                    }
                };
                config.book = Some(BookSpec {
                    file,
                    format,
                    random,
                    plies,
                    start,
                });
            }
            "concurrency" => {
                config.concurrency = num(&take_value(&mut i, &opt)?, &opt)?.max(1) as usize
            }
            "pgnout" => config.pgnout = Some(take_value(&mut i, &opt)?),
            "sgfout" => config.sgfout = Some(take_value(&mut i, &opt)?),
            "pdnout" => config.pdnout = Some(take_value(&mut i, &opt)?),
            "sprt" => {
                let (mut e0, mut e1, mut a, mut b) = (None, None, 0.05, 0.05);
                let mut model = SprtModel::Logistic;
                for (k, v) in take_pairs(&mut i)? {
                    match k.as_str() {
                        "elo0" => e0 = Some(float(&v, "-sprt elo0")?),
                        "elo1" => e1 = Some(float(&v, "-sprt elo1")?),
                        "alpha" => a = float(&v, "-sprt alpha")?,
                        "beta" => b = float(&v, "-sprt beta")?,
                        "prior" => config.sprt_prior = prior_pairs(&v)?,
                        "model" => {
                            model = match v.as_str() {
                                "logistic" => SprtModel::Logistic,
                                "normalized" => SprtModel::Normalized,
                                _ => return Err("-sprt model=logistic|normalized".into()),
                            }
                        }
                        _ => return Err(format!("-sprt: unknown setting '{k}'")),
                    }
                }
                let (e0, e1) = (
                    e0.ok_or("-sprt needs elo0=")?,
                    e1.ok_or("-sprt needs elo1=")?,
                );
                config.sprt = Some(Sprt::new(e0, e1, a, b)?.with_model(model));
            }
            "draw" => {
                let mut d = DrawAdjudication {
                    move_number: 0,
                    move_count: 0,
                    score: 0,
                };
                let mut count = false;
                for (k, v) in take_pairs(&mut i)? {
                    match k.as_str() {
                        "movenumber" => d.move_number = num(&v, "-draw movenumber")? as u32,
                        "movecount" => {
                            d.move_count = num(&v, "-draw movecount")? as u32;
                            count = true
                        }
                        "score" => d.score = num(&v, "-draw score")? as i32,
                        _ => return Err(format!("-draw: unknown setting '{k}'")),
                    }
                }
                if !count || d.move_count == 0 {
                    return Err("-draw needs movecount=N (N > 0)".into());
                }
                config.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignAdjudication {
                    move_count: 0,
                    score: 0,
                    two_sided: false,
                };
                for (k, v) in take_pairs(&mut i)? {
                    match k.as_str() {
                        "movecount" => r.move_count = num(&v, "-resign movecount")? as u32,
                        "score" => r.score = num(&v, "-resign score")? as i32,
                        "twosided" => r.two_sided = v == "true",
                        _ => return Err(format!("-resign: unknown setting '{k}'")),
                    }
                }
                if r.move_count == 0 || r.score <= 0 {
                    return Err("-resign needs movecount=N and score=CP, both positive".into());
                }
                config.resign = Some(r);
            }
            "maxmoves" => config.max_moves = Some(num(&take_value(&mut i, &opt)?, &opt)? as u32),
            "recover" => config.recover = true,
            "resume" => {
                config.journal = Some(JournalSpec {
                    path: take_value(&mut i, &opt)?,
                    fingerprint: fingerprint(args),
                })
            }
            "bitbases" => bitbases = Some(take_value(&mut i, &opt)?),
            "ratinginterval" => {
                config.rating_interval = num(&take_value(&mut i, &opt)?, &opt)? as usize
            }
            "ratingk" => config.rating_k = float(&take_value(&mut i, &opt)?, &opt)?,
            "event" => config.event = take_value(&mut i, &opt)?,
            "srand" => config.seed = num(&take_value(&mut i, &opt)?, &opt)?,
            "debug" => config.debug = true,
            "h" | "help" => return Err(HELP.to_string()),
            _ => {
                return Err(format!(
                    "unknown option '{opt}' (see tetrarch-tune match -help)"
                ))
            }
        }
    }

    let kind = kind.unwrap_or(GameKind::Chess);
    config.kind = kind;
    if let Some(s) = size {
        if !(2..=25).contains(&s) {
            return Err("-game size must be 2 to 25".into());
        }
        config.board_size = s;
    }
    if let Some(k) = komi {
        config.komi = k;
    }
    if let Some(dir) = bitbases {
        let tables = crate::bitbase::load_option(kind.name(), &dir)?;
        config.rules = Some(std::sync::Arc::new(move |start: Option<&str>| {
            super::rules::draughts_with_tables(start, tables.clone())
        }));
    }
    let mut ratings = Vec::new();
    for (n, own) in engines.iter().enumerate() {
        let mut all = each.clone();
        all.extend(own.iter().cloned());
        let (e, rating) =
            engine(&all, kind, margin).map_err(|err| format!("-engine #{}: {err}", n + 1))?;
        config.engines.push(e);
        ratings.push(rating);
    }
    config.ratings = ratings;
    if config.engines.len() < 2 {
        return Err("give at least two engines (-engine cmd=... -engine cmd=...)".into());
    }
    // Distinct names, so records and tables tell the engines apart.
    for i in 0..config.engines.len() {
        if config.engines[i].name.is_empty() {
            let stem = std::path::Path::new(&config.engines[i].launch.cmd)
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| format!("engine{}", i + 1));
            config.engines[i].name = stem;
        }
    }
    for i in 0..config.engines.len() {
        let dup = (0..config.engines.len())
            .any(|j| j != i && config.engines[j].name == config.engines[i].name);
        if dup {
            config.engines[i].name = format!("{}-{}", config.engines[i].name, i + 1);
        }
    }
    Ok(config)
}

/// `prior=A,B,C,D,E`: five pair counts in `Ptnml(0-2)` order.
fn prior_pairs(v: &str) -> Result<Penta, String> {
    let counts: Option<Vec<u64>> = v.split(',').map(|c| c.trim().parse().ok()).collect();
    let five: Option<[u64; 5]> = counts.and_then(|c| c.try_into().ok());
    five.map(Penta::from_five)
        .ok_or_else(|| format!("-sprt prior={v}: five pair counts, A,B,C,D,E"))
}

/// The arguments that decide what a match plays, for its journal: all but the number of games
/// at a time, the journal and output files, and how much is printed.
fn fingerprint(args: &[String]) -> String {
    let mut kept = Vec::new();
    let mut skip_value = false;
    for a in args {
        if std::mem::take(&mut skip_value) && !is_option(a) {
            continue;
        }
        match a.trim_start_matches('-') {
            "concurrency" | "resume" | "pgnout" | "sgfout" | "pdnout" | "ratinginterval"
                if is_option(a) =>
            {
                skip_value = true
            }
            "debug" if is_option(a) => {}
            _ => kept.push(a.as_str()),
        }
    }
    kept.join(" ")
}

fn is_option(w: &str) -> bool {
    w.starts_with('-') && w.len() > 1 && !w[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// One engine from its settings; also its starting rating.
fn engine(
    pairs: &[(String, String)],
    kind: GameKind,
    margin: u64,
) -> Result<(EngineConfig, f64), String> {
    let mut e = EngineConfig::new("");
    e.proto = Protocol::default_for(kind);
    e.margin_ms = margin;
    let mut rating = crate::stats::cca::INITIAL_RATING;
    let mut cmd = None;
    for (k, v) in pairs {
        match k.as_str() {
            "cmd" => cmd = Some(v.clone()),
            "name" => e.name = v.clone(),
            "dir" => e.launch.dir = Some(v.clone()),
            "arg" => e.launch.args.push(v.clone()),
            "proto" => e.proto = Protocol::parse(v)?,
            "tc" => e.tc = Some(TimeControl::parse(v)?),
            "st" => e.tc = Some(TimeControl::parse(&format!("st={v}"))?),
            "nodes" => e.tc = Some(TimeControl::parse(&format!("nodes={v}"))?),
            "depth" => e.tc = Some(TimeControl::parse(&format!("depth={v}"))?),
            "timemargin" => {
                e.margin_ms = v
                    .parse()
                    .map_err(|_| format!("timemargin: '{v}' is not a whole number"))?
            }
            // One line each: a line break inside would send two commands that the runner
            // reads one answer for, and every later answer would belong to the wrong command.
            "initstr" if v.contains(['\n', '\r']) => {
                return Err("initstr: one command per initstr= (no line breaks)".into())
            }
            "initstr" => e.init.push(v.clone()),
            "stderr" => e.launch.stderr = Some(v.clone()),
            "host" => e.host = v.clone(),
            "port" => e.port = v.parse().map_err(|_| format!("port: bad port '{v}'"))?,
            "rating" => rating = v.parse().map_err(|_| format!("rating: bad rating '{v}'"))?,
            "ranks" => {
                e.xiangqi_ranks_from_one = Some(match v.as_str() {
                    "1" => true,
                    "0" => false,
                    _ => return Err("ranks=0 or ranks=1".into()),
                })
            }
            k if k.starts_with("option.") => e
                .options
                .push((k["option.".len()..].to_string(), v.clone())),
            _ => return Err(format!("unknown engine setting '{k}'")),
        }
    }
    let cmd = cmd.unwrap_or_default();
    if cmd.is_empty() && e.proto != Protocol::Dxp {
        return Err("cmd= is required".into());
    }
    // `cmd="gnugo --mode gtp"`: a command with arguments, unless the whole is a file name.
    if cmd.contains(' ') && !std::path::Path::new(&cmd).exists() {
        let mut words = cmd.split_whitespace();
        e.launch.cmd = words.next().unwrap_or("").to_string();
        let mut args: Vec<String> = words.map(String::from).collect();
        args.append(&mut e.launch.args);
        e.launch.args = args;
    } else {
        e.launch.cmd = cmd;
    }
    Ok((e, rating))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_journal_s_fingerprint_leaves_out_what_does_not_change_the_games() {
        let a = parse(&args(
            "-engine cmd=a -engine cmd=b -tc 8+0.08 -games 10 -concurrency 2 -resume j.txt \
             -pgnout x.pgn -debug -ratinginterval 5",
        ))
        .unwrap();
        let b = parse(&args(
            "-engine cmd=a -engine cmd=b -resume j.txt -tc 8+0.08 -games 10",
        ))
        .unwrap();
        let (ja, jb) = (a.journal.unwrap(), b.journal.unwrap());
        assert_eq!(ja.path, "j.txt");
        assert_eq!(
            ja.fingerprint,
            "-engine cmd=a -engine cmd=b -tc 8+0.08 -games 10"
        );
        assert_eq!(ja.fingerprint, jb.fingerprint);
        let c = parse(&args(
            "-engine cmd=a -engine cmd=b -tc 8+0.08 -games 12 -resume j.txt",
        ));
        assert_ne!(c.unwrap().journal.unwrap().fingerprint, jb.fingerprint);
        assert!(parse(&args("-engine cmd=a -engine cmd=b -resume")).is_err());
    }

    #[test]
    fn a_cutechess_style_command_line() {
        let c = parse(&args(
            "-engine cmd=/usr/games/stockfish name=sf option.Hash=16 -engine cmd=./tetrarch \
             -each option.Threads=1 timemargin=50 -game chess -tc 10+0.1 -games 2 -rounds 3 \
             -repeat -concurrency 2 -pgnout out.pgn -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 -recover \
             -ratinginterval 5 -openings file=book.epd order=random plies=8",
        ))
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "sf");
        assert_eq!(c.engines[1].name, "tetrarch");
        assert_eq!(
            c.engines[0].options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".into(), "16".into())
            ]
        );
        assert_eq!(c.engines[1].margin_ms, 50);
        assert_eq!(
            (c.games, c.rounds, c.repeat, c.concurrency),
            (2, 3, true, 2)
        );
        assert_eq!(c.sprt.unwrap().beta, 0.1);
        assert_eq!(c.sprt_prior.pairs(), 0);
        let p = parse(&args(
            "-engine cmd=a -engine cmd=b -repeat -sprt elo0=0 elo1=5 prior=98,165,374,216,147",
        ))
        .unwrap();
        assert_eq!(p.sprt_prior.five(), [98, 165, 374, 216, 147]);
        assert_eq!(c.draw.unwrap().move_count, 8);
        assert_eq!(c.resign.unwrap().score, 600);
        assert!(c.recover);
        let b = c.book.unwrap();
        assert_eq!(b.format, BookFormat::Epd);
        assert!(b.random);
        assert_eq!(b.plies, Some(8));
    }

    #[test]
    fn go_and_commands_with_arguments() {
        let c = parse(&args(
            "-game go size=9 komi=6.5 -engine cmd=/usr/games/gnugo arg=--mode arg=gtp -engine \
             cmd=tetrarch proto=gtp -tc byoyomi=60+10x3",
        ))
        .unwrap();
        assert_eq!((c.board_size, c.komi), (9, 6.5));
        assert_eq!(c.engines[0].proto, Protocol::Gtp);
        assert_eq!(c.engines[0].launch.args, ["--mode", "gtp"]);
    }

    #[test]
    fn mistakes_are_named() {
        for bad in [
            "-engine cmd=a",
            "-engine cmd=a -engine cmd=b -games x",
            "-engine cmd=a -engine cmd=b -tc 10+",
            "-engine cmd=a -engine cmd=b -sprt elo0=5 elo1=0",
            "-engine cmd=a -engine cmd=b -sprt elo0=0 elo1=5 prior=1,2,3,4",
            "-engine cmd=a -engine cmd=b -sprt elo0=0 elo1=5 prior=1,2,x,4,5",
            "-engine cmd=a -engine foo=b",
            "-engine cmd=a -engine cmd=b -bogus",
            "-engine cmd=a -engine cmd=b -game shogi",
            "-engine cmd=a proto=xboard -engine cmd=b",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        // Split on spaces by `args`, so built by hand: one initstr with a line break.
        let mut two_lines = args("-engine cmd=a -engine cmd=b");
        two_lines.push("initstr=set a 1\nset b 2".into());
        let err = parse(&two_lines)
            .err()
            .expect("a line break in initstr is refused");
        assert!(err.contains("initstr"), "{err}");
        two_lines.pop();
        two_lines.extend(["initstr=set a 1".into(), "initstr=set b 2".into()]);
        assert_eq!(parse(&two_lines).unwrap().engines[1].init.len(), 2);
        let same = parse(&args("-engine cmd=x -engine cmd=x")).unwrap();
        assert_ne!(same.engines[0].name, same.engines[1].name);
    }
}
