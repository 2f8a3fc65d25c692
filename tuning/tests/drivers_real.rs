//! The protocol drivers against the real reference engines installed on the machine
//! (Stockfish, Fairy-Stockfish in UCI and UCCI mode, GNU Go). The referee is not involved:
//! these check that each driver completes its handshake, sends a game and reads a move back
//! in the referee's notation.

use std::path::Path;
use std::time::{Duration, Instant};

use tetrarch::game::Side;
use tetrarch_tuning::match_runner::drivers::{
    start_player, EngineConfig, GameSetup, MoveRequest, PlayedMove, PlayerError, Protocol, Reply,
};
use tetrarch_tuning::match_runner::rules::GameKind;
use tetrarch_tuning::match_runner::tc::{PlayerClock, TimeControl};

fn installed(path: &str) -> bool {
    Path::new(path).exists()
}

fn setup(kind: GameKind, side: Side, tc: TimeControl) -> GameSetup {
    GameSetup {
        kind,
        board_size: 9,
        komi: 7.5,
        side,
        tc,
        opponent: "test".into(),
    }
}

fn played(texts: &[&str]) -> Vec<PlayedMove> {
    texts
        .iter()
        .map(|t| PlayedMove {
            text: t.to_string(),
            after: String::new(),
            used_ms: 0,
        })
        .collect()
}

fn is_coordinate_move(m: &str, files: std::ops::RangeInclusive<char>, max_rank: u32) -> bool {
    let b: Vec<char> = m.chars().collect();
    let mut i = 0;
    let mut squares = 0;
    while i < b.len() {
        if !files.contains(&b[i]) {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let r: String = b[start..i].iter().collect();
        match r.parse::<u32>() {
            Ok(r) if r <= max_rank => {}
            _ => return false,
        }
        squares += 1;
        if squares == 2 {
            break;
        }
    }
    squares == 2 && (i == b.len() || (i + 1 == b.len() && "qrbn".contains(b[i])))
}

#[test]
fn stockfish_over_uci() {
    if !installed("/usr/games/stockfish") {
        panic!("/usr/games/stockfish is not installed (tools/install-test-deps.sh installs it)");
    }
    let mut cfg = EngineConfig::new("/usr/games/stockfish");
    cfg.proto = Protocol::Uci;
    cfg.options.push(("Hash".into(), "16".into()));
    let mut p = start_player(&cfg, GameKind::Chess, "sf", false, 0).unwrap();
    assert!(p.name().starts_with("Stockfish"), "{}", p.name());
    let tc = TimeControl::parse("10+0.1").unwrap();
    p.new_game(&setup(GameKind::Chess, Side::Second, tc))
        .unwrap();
    let clock = PlayerClock::new(tc).view();
    let moves = played(&["e2e4"]);
    let req = MoveRequest {
        kind: GameKind::Chess,
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        start_is_initial: true,
        moves: &moves,
        side: Side::Second,
        clocks: [clock, clock],
        tc,
        deadline: Instant::now() + Duration::from_secs(60),
        cleanup: false,
    };
    let a = p.go(&req).unwrap();
    match &a.reply {
        Reply::Move(m) => assert!(is_coordinate_move(m, 'a'..='h', 8), "{m}"),
        r => panic!("{r:?}"),
    }
    assert!(
        a.info.depth.is_some() && a.info.score.is_some(),
        "{:?}",
        a.info
    );
    // A mated side: Stockfish answers `bestmove (none)`.
    let mated = played(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    let req = MoveRequest {
        moves: &mated,
        side: Side::First,
        tc: TimeControl::Depth(3),
        ..req
    };
    assert_eq!(p.go(&req).unwrap().reply, Reply::NoMove);
    assert!(p.healthy());
    p.quit();
}

#[test]
fn fairy_stockfish_xiangqi_over_uci_and_ucci() {
    if !installed("/usr/games/fairy-stockfish") {
        panic!("/usr/games/fairy-stockfish is not installed");
    }
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for proto in [Protocol::Uci, Protocol::Ucci] {
        let mut cfg = EngineConfig::new("/usr/games/fairy-stockfish");
        cfg.proto = proto;
        let mut p = start_player(&cfg, GameKind::Xiangqi, "fsf", false, 0).unwrap();
        let tc = TimeControl::parse("st=0.2").unwrap();
        p.new_game(&setup(GameKind::Xiangqi, Side::Second, tc))
            .unwrap();
        // Red's central cannon (UCCI ranks, 0-9); Black must answer from ranks 5-9.
        let moves = played(&["h2e2"]);
        let clock = PlayerClock::new(tc).view();
        let req = MoveRequest {
            kind: GameKind::Xiangqi,
            start,
            start_is_initial: false,
            moves: &moves,
            side: Side::Second,
            clocks: [clock, clock],
            tc,
            deadline: Instant::now() + Duration::from_secs(60),
            cleanup: false,
        };
        let a = p.go(&req).unwrap();
        let Reply::Move(m) = &a.reply else {
            panic!("{proto:?}: {:?}", a.reply)
        };
        assert!(is_coordinate_move(m, 'a'..='i', 9), "{proto:?}: {m}");
        // Black's pieces start on ranks 6-9 in the 0-9 numbering.
        let from_rank: u32 = m[1..2].parse().unwrap();
        assert!(
            from_rank >= 6,
            "{proto:?}: {m} is not a black move in ranks 0-9"
        );
        p.quit();
    }
}

#[test]
fn gnugo_over_gtp() {
    if !installed("/usr/games/gnugo") {
        panic!("/usr/games/gnugo is not installed");
    }
    let mut cfg = EngineConfig::new("/usr/games/gnugo");
    cfg.proto = Protocol::Gtp;
    cfg.launch.args = vec!["--mode".into(), "gtp".into(), "--seed".into(), "1".into()];
    let mut p = start_player(&cfg, GameKind::Go, "gnugo", false, 0).unwrap();
    assert_eq!(p.name(), "GNU Go");
    let tc = TimeControl::parse("byoyomi=10+2x3").unwrap();
    p.new_game(&setup(GameKind::Go, Side::Second, tc)).unwrap();
    let moves = played(&["E5"]);
    let clock = PlayerClock::new(tc).view();
    let mut req = MoveRequest {
        kind: GameKind::Go,
        start: "",
        start_is_initial: true,
        moves: &moves,
        side: Side::Second,
        clocks: [clock, clock],
        tc,
        deadline: Instant::now() + Duration::from_secs(60),
        cleanup: false,
    };
    let a = p.go(&req).unwrap();
    let Reply::Move(m) = a.reply.clone() else {
        panic!("{:?}", a.reply)
    };
    assert!(m != "E5" && m.len() >= 2, "{m}");
    // Keep playing: the driver must send only the new moves, and re-sync after a rewrite.
    let all = played(&["E5", &m, "C3"]);
    req.moves = &all;
    req.deadline = Instant::now() + Duration::from_secs(60);
    let a = p.go(&req).unwrap();
    assert!(matches!(a.reply, Reply::Move(_)), "{:?}", a.reply);
    let other = played(&["D4"]);
    req.moves = &other;
    req.deadline = Instant::now() + Duration::from_secs(60);
    let a = p.go(&req).unwrap();
    let Reply::Move(m2) = a.reply else { panic!() };
    assert_ne!(m2, "D4");
    let dead = p.dead_stones(&req).unwrap();
    assert!(dead.is_empty(), "{dead:?}");
    // A deadline already past: a loss on time, but the late answer is read within the grace,
    // so the engine stays usable for the next game.
    let late = MoveRequest {
        deadline: Instant::now(),
        ..req.clone()
    };
    assert_eq!(p.go(&late).unwrap_err(), PlayerError::Timeout);
    assert!(p.healthy());
    p.new_game(&setup(GameKind::Go, Side::Second, tc)).unwrap();
    req.deadline = Instant::now() + Duration::from_secs(60);
    let a = p.go(&req).unwrap();
    assert!(matches!(a.reply, Reply::Move(_)), "{:?}", a.reply);
    p.quit();
}
