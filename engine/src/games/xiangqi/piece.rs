//! The seven kinds of xiangqi pieces and how the board names them.
//!
//! Scheme: every piece on the board has a fixed *id* for its whole life. A side owns 16 slots
//! (Red ids 16..32, Black 32..48); slot 0 is the general, 1-2 advisors, 3-4 elephants,
//! 5-6 horses, 7-8 chariots, 9-10 cannons, 11-15 soldiers. A mailbox cell holds 0 (empty), an
//! id, or [`OFF`] (off the board). Red ids have bit 16 set, Black ids bit 32, and `OFF` both,
//! so "not my piece and not off the board" is one AND with the mover's bit. Because the rules
//! allow at most 2 (5 soldiers) of a kind, ids never run out, captures just clear a slot, and
//! unmake puts a piece back in the very slot it left: iteration order never depends on history.

use crate::game::Side;

/// The kind of a piece. FEN letters in brackets (Red upper case, Black lower case).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// General, or king (`K`).
    General = 0,
    /// Advisor (`A`).
    Advisor = 1,
    /// Elephant (`B`; `E` accepted).
    Elephant = 2,
    /// Horse (`N`; `H` accepted).
    Horse = 3,
    /// Chariot, or rook (`R`).
    Chariot = 4,
    /// Cannon (`C`).
    Cannon = 5,
    /// Soldier, or pawn (`P`).
    Soldier = 6,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// 0..7, for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind a side may have.
    pub const fn max_count(self) -> usize {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// The FEN letter (Red's, upper case) as Fairy-Stockfish, Pikafish and UCCI write it.
    pub const fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The kind of a FEN letter of either case, aliases `E` (elephant) and `H` (horse) included.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// The piece's name in Chinese move notation (simplified characters; the two sides'
    /// general, advisor, elephant and soldier have different characters).
    pub const fn chinese(self, side: Side) -> char {
        match (side, self) {
            (Side::First, Kind::General) => '帅',
            (Side::First, Kind::Advisor) => '仕',
            (Side::First, Kind::Elephant) => '相',
            (Side::First, Kind::Soldier) => '兵',
            (Side::Second, Kind::General) => '将',
            (Side::Second, Kind::Advisor) => '士',
            (Side::Second, Kind::Elephant) => '象',
            (Side::Second, Kind::Soldier) => '卒',
            (_, Kind::Horse) => '马',
            (_, Kind::Chariot) => '车',
            (_, Kind::Cannon) => '炮',
        }
    }

    /// The letter of World Xiangqi Federation notation (`K A E H R C P`).
    pub const fn wxf_letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The first slot of this kind within a side's 16.
    #[inline]
    pub(crate) const fn first_slot(self) -> u8 {
        match self {
            Kind::General => 0,
            Kind::Advisor => 1,
            Kind::Elephant => 3,
            Kind::Horse => 5,
            Kind::Chariot => 7,
            Kind::Cannon => 9,
            Kind::Soldier => 11,
        }
    }

    /// Piece values for capture ordering and exchange evaluation (centipawn-like; a soldier
    /// is 100, a horse or cannon about 4 soldiers, a chariot 9). The general's value only
    /// matters as the costliest attacker.
    #[inline]
    pub const fn value(self) -> i32 {
        match self {
            Kind::General => 5000,
            Kind::Advisor => 200,
            Kind::Elephant => 200,
            Kind::Horse => 400,
            Kind::Chariot => 900,
            Kind::Cannon => 450,
            Kind::Soldier => 100,
        }
    }
}

/// The mailbox value of a point off the board: it carries both sides' bits, so it reads as
/// "occupied by my own piece" for either side.
pub(crate) const OFF: u8 = 48;
/// No piece code (for empty and off-board cells in [`CODE`]).
pub(crate) const NO_CODE: u8 = 255;

/// The bit every id of `side` carries: 16 for Red, 32 for Black. Also the side's general id.
#[inline]
pub(crate) const fn side_mask(side: Side) -> u8 {
    16 << side as u8
}

/// The id of the side's general.
#[inline]
pub(crate) const fn general_id(side: Side) -> u8 {
    side_mask(side)
}

/// The piece code `side * 7 + kind` (0..14) of every cell value; [`NO_CODE`] for empty or off.
pub(crate) static CODE: [u8; 64] = build_code();
/// The kind of every id (garbage for non-ids: check [`CODE`] first where that can happen).
pub(crate) static KIND_OF: [Kind; 64] = build_kind();

#[inline]
pub(crate) const fn code(side: Side, kind: Kind) -> u8 {
    side as u8 * 7 + kind as u8
}

#[inline]
pub(crate) const fn side_of_id(id: u8) -> Side {
    if id & 32 != 0 {
        Side::Second
    } else {
        Side::First
    }
}

const fn slot_kind(slot: u8) -> Kind {
    match slot {
        0 => Kind::General,
        1 | 2 => Kind::Advisor,
        3 | 4 => Kind::Elephant,
        5 | 6 => Kind::Horse,
        7 | 8 => Kind::Chariot,
        9 | 10 => Kind::Cannon,
        _ => Kind::Soldier,
    }
}

const fn build_code() -> [u8; 64] {
    let mut t = [NO_CODE; 64];
    let mut id = 16;
    while id < 48 {
        let side = if id >= 32 { 1 } else { 0 };
        t[id] = side * 7 + slot_kind((id & 15) as u8) as u8;
        id += 1;
    }
    t
}

const fn build_kind() -> [Kind; 64] {
    let mut t = [Kind::General; 64];
    let mut id = 16;
    while id < 48 {
        t[id] = slot_kind((id & 15) as u8);
        id += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_cover_the_allowed_counts() {
        let mut total = 0;
        for kind in Kind::ALL {
            total += kind.max_count();
            for i in 0..kind.max_count() as u8 {
                assert_eq!(KIND_OF[(16 + kind.first_slot() + i) as usize], kind);
                assert_eq!(CODE[(32 + kind.first_slot() + i) as usize], 7 + kind as u8);
            }
        }
        assert_eq!(total, 16);
        assert_eq!(CODE[0], NO_CODE);
        assert_eq!(CODE[OFF as usize], NO_CODE);
        assert!(OFF & side_mask(Side::First) != 0 && OFF & side_mask(Side::Second) != 0);
    }

    #[test]
    fn letters_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_letter(kind.letter()), Some(kind));
            assert_eq!(
                Kind::from_letter(kind.letter().to_ascii_lowercase()),
                Some(kind)
            );
        }
        assert_eq!(Kind::from_letter('e'), Some(Kind::Elephant));
        assert_eq!(Kind::from_letter('H'), Some(Kind::Horse));
        assert_eq!(Kind::from_letter('x'), None);
    }
}
