//! Analysis arguments and `info` lines in the three dialects clients parse: Leela Zero's
//! (`lz-analyze`: integers, winrate and prior in ten-thousandths), KataGo's (`kata-analyze`:
//! floats in [0, 1], scores in points) and Sabaki's `analyze` (integers like Leela Zero, plus
//! `scoreLead`). Values are from the view of the player to move.

use std::time::Duration;

use tetrarch::game::Side;
use tetrarch::games::go::{Board, Move};
use tetrarch::mcts::Snapshot;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Lz,
    Kata,
    Sabaki,
}

/// Parsed analysis arguments.
#[derive(Clone, Debug)]
pub struct AnalysisParams {
    pub side: Side,
    pub interval: Duration,
    pub max_moves: Option<usize>,
    pub allow: Vec<Move>,
    pub avoid: Vec<Move>,
    pub ownership: bool,
    pub root_info: bool,
}

/// `[color] [interval] [key value ...]`. The interval is in centiseconds.
pub fn parse_analysis_args(
    args: &[&str],
    to_move: Side,
    board: &Board,
) -> Result<AnalysisParams, String> {
    let bad = || Err::<AnalysisParams, String>("syntax error".into());
    let mut p = AnalysisParams {
        side: to_move,
        interval: Duration::from_secs(1),
        max_moves: None,
        allow: Vec::new(),
        avoid: Vec::new(),
        ownership: false,
        root_info: false,
    };
    let mut i = 0;
    if let Some(side) = args.first().and_then(|a| super::parse_colour(a)) {
        p.side = side;
        i += 1;
    }
    let centis = |s: &str| -> Option<Duration> {
        let v: f64 = s.parse().ok()?;
        (v.is_finite() && (0.0..1e7).contains(&v)).then(|| Duration::from_millis((v * 10.0) as u64))
    };
    if let Some(d) = args.get(i).and_then(|a| centis(a)) {
        p.interval = d;
        i += 1;
    }
    let flag = |v: &str| match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    while i < args.len() {
        let key = args[i];
        match key {
            "interval" => match args.get(i + 1).and_then(|a| centis(a)) {
                Some(d) => p.interval = d,
                None => return bad(),
            },
            "minmoves" | "maxmoves" => {
                match args.get(i + 1).and_then(|a| a.parse::<usize>().ok()) {
                    Some(n) => {
                        if key == "maxmoves" {
                            p.max_moves = Some(n)
                        }
                    }
                    None => return bad(),
                }
            }
            "ownership" | "ownershipStdev" | "movesOwnership" | "rootInfo" | "pvVisits"
            | "pvEdgeVisits" | "noResultValue" => match args.get(i + 1).and_then(|a| flag(a)) {
                Some(v) => {
                    if key == "ownership" {
                        p.ownership = v;
                    } else if key == "rootInfo" {
                        p.root_info = v;
                    }
                }
                None => return bad(),
            },
            "avoid" | "allow" => {
                let (Some(colour), Some(list), Some(depth)) =
                    (args.get(i + 1), args.get(i + 2), args.get(i + 3))
                else {
                    return bad();
                };
                let Some(side) = super::parse_colour(colour) else {
                    return bad();
                };
                let Ok(depth) = depth.parse::<u32>() else {
                    return bad();
                };
                let mut moves = Vec::new();
                for v in list.split(',').filter(|v| !v.is_empty()) {
                    match board.parse_vertex(v) {
                        Some(m) => moves.push(m),
                        None => return bad(),
                    }
                }
                // Only the first move (the root) is restricted here.
                if side == p.side && depth >= 1 {
                    if key == "avoid" {
                        p.avoid.extend(moves);
                    } else {
                        p.allow.extend(moves);
                    }
                }
                i += 4;
                continue;
            }
            _ => return bad(),
        }
        i += 2;
    }
    Ok(p)
}

/// One `info` line for a snapshot, or `None` when no move has a visit yet.
pub fn info_line(
    b: &Board,
    snap: &Snapshot<Move>,
    dialect: Dialect,
    p: &AnalysisParams,
) -> Option<String> {
    if snap.moves.is_empty() {
        return None;
    }
    let limit = p.max_moves.filter(|&m| m > 0).unwrap_or(usize::MAX);
    let mut line = String::new();
    let ten_k = |v: f32| (v.clamp(0.0, 1.0) * 10000.0).round() as i64;
    for (order, m) in snap.moves.iter().take(limit).enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let mv = b.vertex(m.mv).to_uppercase();
        let pv: Vec<String> = m.pv.iter().map(|&x| b.vertex(x).to_uppercase()).collect();
        let pv = pv.join(" ");
        match dialect {
            Dialect::Lz => line.push_str(&format!(
                "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                m.visits,
                ten_k(m.winrate),
                ten_k(m.prior),
                ten_k(m.lcb)
            )),
            Dialect::Sabaki => line.push_str(&format!(
                "info move {mv} visits {} winrate {} scoreLead {:.2} prior {} lcb {} order {order} pv {pv}",
                m.visits,
                ten_k(m.winrate),
                m.score,
                ten_k(m.prior),
                ten_k(m.lcb)
            )),
            Dialect::Kata => {
                let utility = 2.0 * m.winrate - 1.0;
                let utility_lcb = 2.0 * m.lcb - 1.0;
                line.push_str(&format!(
                    "info move {mv} visits {v} edgeVisits {v} utility {utility:.6} winrate {:.6} \
                     scoreMean {s:.3} scoreStdev {:.3} scoreLead {s:.3} scoreSelfplay {s:.3} \
                     prior {:.6} lcb {:.6} utilityLcb {utility_lcb:.6} weight {v}.0 order {order} pv {pv}",
                    m.winrate,
                    m.score_stdev,
                    m.prior,
                    m.lcb,
                    v = m.visits,
                    s = m.score,
                ));
            }
        }
    }
    if dialect == Dialect::Kata {
        if p.root_info {
            line.push_str(&format!(
                " rootInfo visits {} winrate {:.6} scoreLead {:.3} scoreSelfplay {:.3} utility {:.6}",
                snap.root_visits,
                snap.winrate,
                snap.score,
                snap.score,
                2.0 * snap.winrate - 1.0
            ));
        }
        if p.ownership {
            let n = b.size();
            let sign = if p.side == Side::First { 1.0 } else { -1.0 };
            line.push_str(" ownership");
            for y in (0..n).rev() {
                for x in 0..n {
                    let v = snap.ownership.get(y * n + x).copied().unwrap_or(0.0) * sign;
                    line.push_str(&format!(" {v:.4}"));
                }
            }
        }
    }
    Some(line)
}
