//! Fits the xiangqi evaluation weights to scored positions (Texel-style local search).
//!
//! Input: lines `<FEN board> <side>;<score>`, the score from Red's view in centipawn-like
//! units (for example a stronger engine's search score). The loss is the mean squared
//! difference of `sigmoid(eval)` and `sigmoid(score)` with `sigmoid(x) = 1 / (1 + 10^(-x/400))`,
//! over nine tenths of the positions; the other tenth is held out and reported, so overfitting
//! shows. Positions where the side to move has a capture that wins material (static exchange
//! above zero) are skipped: the static evaluation cannot see what a search score includes.
//!
//! Parameters are the halves of every weight pair of `Weights::visit_mut`; a piece-square
//! entry moves together with its mirror across the central file (the tables stay symmetric),
//! and entries that too few positions use are left alone. Each parameter is moved by a step
//! while that lowers the training loss, pass after pass; the step halves when a pass gains
//! little. Prints the fitted table as Rust at the end, for `weights.rs`.
//!
//! Usage: cargo run --release --example xiangqi_fit -- LABELS [PASSES] [SKIP_PST] [START]
//! where START is an earlier output to continue from (its `S(mg, eg)` pairs in order).

use tetrarch::game::{GenKind, MoveList, Notation, Position, Side};
use tetrarch::games::xiangqi::weights::{Weights, S};
use tetrarch::games::xiangqi::{eval, Board, Kind};

/// Least number of training positions using a table entry for it to be fitted.
const MIN_USES: usize = 40;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-x / 400.0))
}

struct Sample {
    board: Board,
    target: f64,
}

fn red_eval(w: &Weights, b: &Board) -> i32 {
    let v = eval::evaluate(w, b);
    if b.side() == Side::First {
        v
    } else {
        -v
    }
}

fn loss(w: &Weights, set: &[Sample]) -> f64 {
    let mut total = 0.0;
    for s in set {
        let d = sigmoid(red_eval(w, &s.board) as f64) - s.target;
        total += d * d;
    }
    total / set.len().max(1) as f64
}

fn flatten(w: &Weights) -> (Vec<i32>, Vec<(&'static str, usize)>) {
    let mut flat = Vec::new();
    let mut names = Vec::new();
    w.clone().visit_mut(|name, i, s| {
        flat.push(s.0);
        flat.push(s.1);
        names.push((name, i));
    });
    (flat, names)
}

fn unflatten(flat: &[i32]) -> Weights {
    let mut w = Weights::default();
    let mut k = 0;
    w.visit_mut(|_, _, s| {
        *s = S(flat[2 * k], flat[2 * k + 1]);
        k += 1;
    });
    w
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("labels file");
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4);
    let skip_pst = args.get(3).is_some_and(|s| s == "1");
    let text = std::fs::read_to_string(path).expect("reading labels");
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((fen, score)) = line.split_once(';') else {
            continue;
        };
        let (Ok(board), Ok(score)) = (Board::from_text(fen), score.trim().parse::<f64>()) else {
            continue;
        };
        let mut caps = MoveList::new();
        board.generate(GenKind::Noisy, &mut caps);
        if caps
            .iter()
            .any(|&m| board.is_legal(m) && board.see_ge(m, 1))
        {
            continue;
        }
        let s = Sample {
            board,
            target: sigmoid(score),
        };
        if i % 10 == 9 {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    eprintln!("{} training, {} held out", train.len(), test.len());

    // How often each table entry (kind, point from the owner's side) is used.
    let mut uses = vec![[0usize; 90]; 7];
    for s in &train {
        for side in Side::BOTH {
            for kind in Kind::ALL {
                for sq in s.board.pieces(side, kind) {
                    uses[kind.index()][sq.relative(side).index()] += 1;
                }
            }
        }
    }

    let (mut flat, names) = flatten(&Weights::default());
    if let Some(start) = args.get(4) {
        let text = std::fs::read_to_string(start).expect("reading the start table");
        let numbers: Vec<i32> = text
            .split("S(")
            .skip(1)
            .flat_map(|t| {
                let inner = t.split(')').next().unwrap_or("");
                inner
                    .split(',')
                    .map(|n| n.trim().parse::<i32>().expect("a number"))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            numbers.len(),
            flat.len(),
            "the start table has every weight"
        );
        flat = numbers;
    }
    // Parameter groups: lists of flat indices moved together.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (pair, &(name, i)) in names.iter().enumerate() {
        for half in 0..2 {
            if name == "pst" {
                if skip_pst {
                    continue;
                }
                let (kind, sq) = (i / 90, i % 90);
                let (file, rank) = (sq % 9, sq / 9);
                if file > 4 {
                    continue; // moved with its mirror
                }
                let mirror = rank * 9 + (8 - file);
                let n = uses[kind][sq] + if mirror != sq { uses[kind][mirror] } else { 0 };
                if n < MIN_USES {
                    continue;
                }
                let mut g = vec![2 * pair + half];
                if mirror != sq {
                    g.push(2 * (pair - i + kind * 90 + mirror) + half);
                }
                groups.push(g);
            } else {
                groups.push(vec![2 * pair + half]);
            }
        }
    }
    eprintln!("{} parameter groups", groups.len());

    let mut best = loss(&unflatten(&flat), &train);
    eprintln!(
        "start: train {best:.6} test {:.6}",
        loss(&unflatten(&flat), &test)
    );
    let mut step = 8;
    for pass in 0..passes {
        let before = best;
        for g in &groups {
            for dir in [1, -1] {
                let mut trial = flat.clone();
                for &k in g {
                    trial[k] += dir * step;
                }
                let l = loss(&unflatten(&trial), &train);
                if l < best {
                    best = l;
                    flat = trial;
                    break;
                }
            }
        }
        eprintln!(
            "pass {pass} step {step}: train {best:.6} test {:.6}",
            loss(&unflatten(&flat), &test)
        );
        if before - best < 2e-5 && step > 1 {
            step /= 2;
        }
    }
    let w = unflatten(&flat);
    let mut last = "";
    let mut w2 = w.clone();
    w2.visit_mut(|name, i, s| {
        if name != last {
            println!();
            print!("{name}:");
            last = name;
        }
        if name == "pst" && i % 9 == 0 {
            println!();
        }
        print!(" S({}, {}),", s.0, s.1);
    });
    println!();
}
