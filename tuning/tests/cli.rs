//! The `tetrarch-tune` binary's command line: help, usage errors (exit 2), an engine that
//! cannot start (the game is lost, the match stops, exit 1), and a whole match through the
//! binary with a PGN written.

use std::process::Command;

fn tune(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tetrarch-tune"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn random_engine(seed: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake/chess_random.py");
    vec![
        "-engine".into(),
        "cmd=python3".into(),
        format!("arg={script}"),
        format!("arg={seed}"),
    ]
}

#[test]
fn help_and_usage_errors() {
    let (code, out, _) = tune(&["match", "-help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("-engine cmd=PATH") && out.contains("-sprt elo0="),
        "{out}"
    );
    let (code, _, err) = tune(&["match", "-engine", "cmd=a"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least two engines"), "{err}");
    let (code, _, err) = tune(&["match", "-engine", "cmd=a", "-engine", "cmd=b", "-tc", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad time 'x'"), "{err}");
    let (code, _, err) = tune(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage"), "{err}");
    let (code, _, err) = tune(&[
        "match", "-engine", "cmd=a", "-engine", "cmd=b", "-game", "chess",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no time control"), "{err}");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_and_scores_nothing() {
    let mut args: Vec<String> = ["match", "-game", "chess", "-tc", "10+0.1", "-games", "4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend([
        "-engine".into(),
        "cmd=/nonexistent/engine".into(),
        "name=ghost".into(),
    ]);
    args.extend(random_engine("1"));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, _) = tune(&refs);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("failed to start"), "{out}");
    assert!(out.contains("Terminating match"), "{out}");
    // No game was played, so none is scored (a forfeit would be a result nobody earned).
    assert!(out.contains("0 of 4 games finished"), "{out}");
}

#[test]
fn a_match_through_the_binary() {
    let pgn = std::env::temp_dir().join(format!("cli-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let mut args: Vec<String> = [
        "match", "-game", "chess", "-tc", "30+0.5", "-games", "2", "-repeat", "-pgnout",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(pgn.to_string_lossy().to_string());
    args.extend(random_engine("1"));
    args.extend(random_engine("2"));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = tune(&refs);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 of 2 games finished"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2);
    let _ = std::fs::remove_file(&pgn);
}

/// Xiangqi through both tuning commands: datagen plays two tiny games, texel reads the file
/// back and writes a table in the form of `engine/src/games/xiangqi/tuned.rs`.
#[test]
fn xiangqi_datagen_and_texel_through_the_binary() {
    let dir = std::env::temp_dir().join(format!("cli-xiangqi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("xq.txt");
    let table = dir.join("tuned.rs");
    let (code, out, _) = tune(&["datagen", "-help"]);
    assert_eq!(code, 0);
    assert!(out.contains("-game chess|xiangqi|draughts"), "{out}");
    let (code, out, err) = tune(&[
        "datagen",
        "-game",
        "xiangqi",
        "-out",
        data.to_str().unwrap(),
        "-games",
        "2",
        "-nodes",
        "300",
        "-opening-nodes",
        "200",
        "-max-plies",
        "80",
        "-draw-after",
        "30",
        "-quiet",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("datagen: 2 games"), "{out}");
    let lines = std::fs::read_to_string(&data).unwrap().lines().count();
    assert!(lines > 10, "{lines} positions");
    let (code, out, err) = tune(&[
        "texel",
        "-game",
        "xiangqi",
        "-data",
        data.to_str().unwrap(),
        "-epochs",
        "3",
        "-out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("extracted") && err.contains("(0 unreadable)"),
        "{err}"
    );
    assert!(out.contains("positions per second per epoch"), "{out}");
    let src = std::fs::read_to_string(&table).unwrap();
    assert!(
        src.contains("pub(crate) const TUNED: crate::linear::Tuned = &[\n    (\"material\", &["),
        "{src}"
    );
    assert!(
        src.contains("Command: tetrarch-tune texel -game xiangqi"),
        "{src}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
