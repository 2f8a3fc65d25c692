//! A toy game for testing the runner without any real game's rules: a counter from 0; a move
//! adds 1, 2 or 3 (`+1`..`+3`) or passes (`0`); whoever brings the counter to exactly 21
//! wins (the side to move at 21 has lost); three passes in a row draw. Text: `N w|b Z` with Z
//! the current run of passes. The first mover wins with correct play (to 1, 5, 9, ...).

use std::sync::Arc;

use tetrarch::game::{GenKind, MoveList, Notation, Outcome, Position, Reason, Side, TextError};
use tetrarch_tuning::match_runner::rules::{GameKind, NotationRules, Rules};
use tetrarch_tuning::match_runner::runner::RulesFactory;

#[derive(Clone, Debug, PartialEq)]
pub struct Toy {
    counter: u32,
    side: Side,
    passes: u32,
    history: Vec<(u32, u32)>,
}

impl Position for Toy {
    type Move = u8;
    type CheckInfo = ();
    type ThreatInfo = ();
    type Undo = (u32, u32);
    const NULL_MOVE_OK: bool = false;
    const HAS_CHECKS: bool = false;
    const MOVE_INDEX_SPACE: usize = 4;

    fn side_to_move(&self) -> Side {
        self.side
    }
    fn key(&self) -> u64 {
        (self.counter as u64) << 8 | (self.passes as u64) << 1 | self.side.index() as u64
    }
    fn generate(&self, _kind: GenKind, out: &mut MoveList<u8>) {
        if self.counter >= 21 {
            return;
        }
        for m in 0..=3u8 {
            if self.counter + m as u32 <= 21 {
                out.push(m);
            }
        }
    }
    fn is_pseudo_legal(&self, m: u8) -> bool {
        m <= 3 && self.counter + m as u32 <= 21
    }
    fn is_legal(&self, m: u8) -> bool {
        self.is_pseudo_legal(m)
    }
    fn is_noisy(&self, _m: u8) -> bool {
        false
    }
    fn make(&mut self, m: u8) -> (u32, u32) {
        let undo = (self.counter, self.passes);
        self.history.push(undo);
        self.counter += m as u32;
        self.passes = if m == 0 { self.passes + 1 } else { 0 };
        self.side = self.side.flip();
        undo
    }
    fn unmake(&mut self, _m: u8, undo: (u32, u32)) {
        self.history.pop();
        (self.counter, self.passes) = undo;
        self.side = self.side.flip();
    }
    fn make_null(&mut self) -> (u32, u32) {
        self.make(0)
    }
    fn unmake_null(&mut self, undo: (u32, u32)) {
        self.unmake(0, undo)
    }
    fn rule_outcome(&self, _ply: usize) -> Option<Outcome> {
        if self.counter == 21 {
            Some(Outcome::loss(Reason::NoLegalMove))
        } else if self.passes >= 3 {
            Some(Outcome::draw(Reason::Repetition))
        } else {
            None
        }
    }
    fn no_move_outcome(&self) -> Outcome {
        Outcome::loss(Reason::NoLegalMove)
    }
    fn move_index(&self, m: u8) -> usize {
        m as usize
    }
    fn pack(m: u8) -> u32 {
        m as u32
    }
    fn unpack(&self, bits: u32) -> Option<u8> {
        (bits <= 3).then_some(bits as u8)
    }
}

impl Notation for Toy {
    fn start() -> Self {
        Toy {
            counter: 0,
            side: Side::First,
            passes: 0,
            history: Vec::new(),
        }
    }
    fn from_text(text: &str) -> Result<Self, TextError> {
        let f: Vec<&str> = text.split_whitespace().collect();
        let bad = || TextError::new(format!("bad toy position '{text}'"));
        if f.len() != 3 {
            return Err(bad());
        }
        let counter: u32 = f[0].parse().map_err(|_| bad())?;
        let side = match f[1] {
            "w" => Side::First,
            "b" => Side::Second,
            _ => return Err(bad()),
        };
        let passes: u32 = f[2].parse().map_err(|_| bad())?;
        if counter > 21 {
            return Err(bad());
        }
        Ok(Toy {
            counter,
            side,
            passes,
            history: Vec::new(),
        })
    }
    fn to_text(&self) -> String {
        format!(
            "{} {} {}",
            self.counter,
            if self.side == Side::First { "w" } else { "b" },
            self.passes
        )
    }
    fn parse_move(&self, text: &str) -> Result<u8, TextError> {
        let m: u8 = text
            .trim_start_matches('+')
            .parse()
            .map_err(|_| TextError::new(format!("'{text}' is not a toy move")))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(TextError::new(format!(
                "'{text}' is illegal at {}",
                self.counter
            )))
        }
    }
    fn move_text(&self, m: u8) -> String {
        if m == 0 {
            "0".into()
        } else {
            format!("+{m}")
        }
    }
}

/// The toy's referee, as the runner takes it.
pub fn factory() -> RulesFactory {
    Arc::new(|start: Option<&str>| {
        NotationRules::<Toy>::new(GameKind::Chess, start).map(|r| Box::new(r) as Box<dyn Rules>)
    })
}

/// The fake engine script's path.
pub fn fake_engine() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake/toy_uci.py").to_string()
}
