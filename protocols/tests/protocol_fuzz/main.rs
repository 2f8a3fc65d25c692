//! A bounded protocol fuzz test: every protocol the `tetrarch` binary speaks gets a few
//! thousand valid, mutated and garbage lines, with a liveness probe every 50 lines.
//!
//! Scheme: each test starts the built binary (`CARGO_BIN_EXE_tetrarch`) for one protocol: UCI
//! (chess), UCI with `UCI_Variant` = xiangqi, UCCI, GTP, KataGo's JSON analysis protocol
//! (`tetrarch analysis`) and Hub over stdin, and DXP over a TCP connection on 127.0.0.1 to
//! `tetrarch dxp --listen`. A protocol's grammar (`uci`, `gtp`,
//! `hub`, `dxp`) makes valid lines: real positions from random playouts by the engine's own
//! rules, legal and illegal moves, searches with small limits (depth 1-3, at most 20 ms, a few
//! thousand nodes, 40 playouts a Go move), options with good and bad values. `mutate` edits
//! valid lines (byte flips, truncation, duplicated tokens, huge, negative and NaN numbers, empty
//! fields, very long lines, NUL, CR, non-UTF-8) and makes garbage. Half the lines are valid,
//! 35% mutated, 15% garbage. Each grammar's sanitiser only removes what would end or stall a
//! session by design (`quit`, a mutated unbounded search where the protocol blocks on it) or
//! overload a shared machine (hash sizes and thread counts), and keeps the probe's command out
//! of the fuzzed lines, so that every probe answer is counted exactly.
//!
//! Known defects the run steps around, so that it passes while they are being fixed: the DXP
//! follower serves one connection (the run uses one); a Hub `stop` that arrives while lines
//! wait behind a search ends the running search, not the queued `go ponder` it follows, so the
//! queue check nudges with `stop` (`harness::Drain`).
//!
//! Probes: UCI and UCCI `isready` -> `readyok`; GTP `<id> protocol_version` -> exactly
//! `=<id> 2`; analysis a `terminate_all` action -> its exact echo; Hub `ping` -> `pong`; DXP a BACKREQ to an unreachable move -> BACKACC `K2`. A probe
//! not answered within the deadline, an exit, panic text on stderr, or (stdin protocols) not
//! quitting cleanly at end of input fails the test with the seed and the last 50 lines sent.
//!
//! Knobs, from the environment: `TETRARCH_FUZZ_LINES` (lines per protocol, default
//! [`harness::DEFAULT_LINES`]), `TETRARCH_FUZZ_SEED` (decimal or `0x` hex, default
//! [`harness::DEFAULT_SEED`]; each protocol mixes its name in) and `TETRARCH_FUZZ_DEADLINE_MS`
//! (default 10000); `TETRARCH_FUZZ_DUMP=DIR` writes each run's input as sent (`DIR/hub.in`, ...;
//! replay with `tetrarch hub < DIR/hub.in`) and the lines read. A run is determined by the seed,
//! except for timing: how far a search got before the next line arrived.

mod analysis;
mod dxp;
mod gtp;
mod harness;
mod hub;
mod mutate;
mod positions;
mod uci;

use harness::{run_text, Config, Stats};

fn report(name: &str, cfg: &Config, stats: &Stats) {
    eprintln!("fuzz {name}: seed {:#x}: {stats}", cfg.seed);
    assert!(
        stats.total() >= cfg.lines,
        "{name}: only {} of {} lines sent",
        stats.total(),
        cfg.lines
    );
    // The lines reached the engine's searches, not only its error paths.
    assert!(
        stats.results * 50 >= stats.total(),
        "{name}: only {} results (best moves, answers) for {} lines",
        stats.results,
        stats.total()
    );
    // At least one probe per two probe intervals, whatever the sanitisers added.
    assert!(
        stats.probes * 2 * harness::PROBE_EVERY >= stats.total(),
        "{name}: {} probes for {} lines",
        stats.probes,
        stats.total()
    );
}

#[test]
fn fuzz_uci_chess() {
    let cfg = Config::from_env();
    let stats = run_text(uci::Uci::chess(), &cfg);
    report("uci-chess", &cfg, &stats);
}

#[test]
fn fuzz_uci_xiangqi() {
    let cfg = Config::from_env();
    let stats = run_text(uci::Uci::xiangqi(), &cfg);
    report("uci-xiangqi", &cfg, &stats);
}

#[test]
fn fuzz_ucci() {
    let cfg = Config::from_env();
    let stats = run_text(uci::Ucci::new(), &cfg);
    report("ucci", &cfg, &stats);
}

#[test]
fn fuzz_gtp() {
    let cfg = Config::from_env();
    let stats = run_text(gtp::Gtp::new(), &cfg);
    report("gtp", &cfg, &stats);
}

#[test]
fn fuzz_analysis() {
    let cfg = Config::from_env();
    let stats = run_text(analysis::Analysis::new(), &cfg);
    report("analysis", &cfg, &stats);
}

#[test]
fn fuzz_hub() {
    let cfg = Config::from_env();
    let stats = run_text(hub::Hub::new(), &cfg);
    report("hub", &cfg, &stats);
}

#[test]
fn fuzz_dxp() {
    let cfg = Config::from_env();
    let stats = dxp::run(&cfg);
    report("dxp", &cfg, &stats);
}
