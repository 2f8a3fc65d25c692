//! The Hub and DXP drivers against small fake engines (tests/fake/hub_fake.py, dxp_fake.py):
//! the exact lines and messages the runner sends for a draughts game with a capture, and the
//! moves it reads back in the referee's notation.

use std::time::{Duration, Instant};

use tetrarch::game::{Side, Verdict};
use tetrarch_tuning::match_runner::drivers::{
    start_player, EngineConfig, GameSetup, MoveRequest, PlayedMove, Protocol, Reply,
};
use tetrarch_tuning::match_runner::rules::GameKind;
use tetrarch_tuning::match_runner::tc::{PlayerClock, TimeControl};

fn fake(name: &str) -> String {
    format!("{}/tests/fake/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("{name}-{}", std::process::id()))
        .to_string_lossy()
        .to_string()
}

const START: &str = "W:W31-50:B1-20";

/// 32-28 19-23 28x19 (White takes 23), as the referee would record them.
fn game() -> Vec<PlayedMove> {
    let m = |text: &str, after: &str| PlayedMove {
        text: text.into(),
        after: after.into(),
        used_ms: 1500,
    };
    vec![
        m("32-28", "B:W28,31,33-50:B1-20"),
        m("19-23", "W:W28,31,33-50:B1-18,20,23"),
        m("28x19", "B:W19,31,33-50:B1-18,20"),
    ]
}

fn setup(side: Side, tc: TimeControl) -> GameSetup {
    GameSetup {
        kind: GameKind::Draughts,
        board_size: 0,
        komi: 0.0,
        side,
        tc,
        opponent: "opponent".into(),
    }
}

#[test]
fn hub_lines_and_answers() {
    let log = temp("hub-log");
    let mut cfg = EngineConfig::new("python3");
    cfg.launch.args = vec![fake("hub_fake.py"), log.clone(), "14x23x19".into()];
    cfg.proto = Protocol::Hub;
    cfg.options.push(("threads".into(), "2".into()));
    let mut p = start_player(&cfg, GameKind::Draughts, "hub", false, 0).unwrap();
    assert_eq!(p.name(), "FakeHub");
    let tc = TimeControl::parse("60+1").unwrap();
    p.new_game(&setup(Side::Second, tc)).unwrap();
    let moves = game();
    let clock = PlayerClock::new(tc).view();
    let req = MoveRequest {
        kind: GameKind::Draughts,
        start: START,
        start_is_initial: true,
        moves: &moves,
        side: Side::Second,
        clocks: [clock, clock],
        tc,
        deadline: Instant::now() + Duration::from_secs(60),
        cleanup: false,
    };
    let a = p.go(&req).unwrap();
    assert_eq!(a.reply, Reply::Move("14x23x19".into()));
    assert_eq!((a.info.score, a.info.depth), (Some(25), Some(3)));
    p.quit();
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(
        lines,
        [
            "hub",
            "set-param name=threads value=2",
            "init",
            "new-game",
            "ping",
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23 28x19x23\"",
            // Hub adds the increment before the move: time left less one increment.
            "level time=59.000 inc=1.000",
            "go think",
            "quit"
        ]
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn dxp_messages_and_answers() {
    let log = temp("dxp-log");
    let port = 27_000 + (std::process::id() % 2000) as u16;
    let mut cfg = EngineConfig::new("python3");
    cfg.launch.args = vec![
        fake("dxp_fake.py"),
        "{port}".into(),
        log.clone(),
        // The engine is Black: 19-23 to White's 32-28, then 14x23 taking 19 after 28x19.
        "M0001192300".into(),
        "M000314230119".into(),
    ];
    cfg.proto = Protocol::Dxp;
    cfg.port = port;
    let mut p = start_player(&cfg, GameKind::Draughts, "dxp", false, 0).unwrap();
    let tc = TimeControl::parse("300").unwrap();
    p.new_game(&setup(Side::Second, tc)).unwrap();
    let all = game();
    let clock = PlayerClock::new(tc).view();
    let req = MoveRequest {
        kind: GameKind::Draughts,
        start: START,
        start_is_initial: true,
        moves: &all[..1],
        side: Side::Second,
        clocks: [clock, clock],
        tc,
        deadline: Instant::now() + Duration::from_secs(60),
        cleanup: false,
    };
    let a = p.go(&req).unwrap();
    assert_eq!(a.reply, Reply::Move("19-23".into()));
    assert_eq!(p.name(), "FakeDXP");
    let req = MoveRequest { moves: &all, ..req };
    let a = p.go(&req).unwrap();
    assert_eq!(a.reply, Reply::Move("14x23x19".into()));
    p.game_over(&req, Some(Verdict::Loss));
    p.quit();
    let got = std::fs::read_to_string(&log).unwrap();
    let msgs: Vec<&str> = got.lines().collect();
    assert_eq!(msgs.len(), 4, "{msgs:?}");
    assert!(
        msgs[0].starts_with("R01tetrarch-tune vs opponent"),
        "{}",
        msgs[0]
    );
    assert_eq!(msgs[0].len(), 3 + 32 + 1 + 3 + 3 + 1);
    assert_eq!(&msgs[0][35..], "Z005000A");
    // Only the opponent's moves go out, each once.
    assert_eq!(msgs[1], "M0001322800");
    assert_eq!(msgs[2], "M000128190123");
    // The engine lost: our GAMEEND says "I win", stop code 0.
    assert_eq!(msgs[3], "E30");
    let _ = std::fs::remove_file(&log);
}
