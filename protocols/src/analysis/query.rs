//! Reading one analysis query: its fields checked one by one, in the order KataGo's analysis
//! engine checks them, into the positions to analyse and how.
//!
//! Scheme: [`read`] takes a parsed JSON object (an analysis query, not an action) and returns
//! either a [`Query`] with the warnings the client should hear, or the first [`Problem`] (an
//! error that names the field). Every turn asked for is built up front by replaying the moves
//! on a [`Record`], so an illegal move anywhere rejects the whole query before anything is
//! searched. Rules come as KataGo's names or its rules object; Tetrarch plays one rule set
//! (area scoring, positional superko, suicide illegal), so rules that differ from it in
//! scoring, tax, suicide or button are played as Tetrarch's with a warning, in the form KataGo
//! uses for rules its network cannot play. The white handicap bonus is added to the komi.

use std::time::Duration;

use tetrarch::game::Side;
use tetrarch::games::go::{Board, Illegal, Move, Record, MAX_SIZE, MIN_SIZE};

use super::json::Json;

/// An error or a warning about one field of a query.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

fn problem(field: &str, message: impl Into<String>) -> Problem {
    Problem {
        field: field.to_string(),
        message: message.into(),
    }
}

/// From whose view winrates, scores and ownership are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    Black,
    White,
    /// The player to move in the position analysed (KataGo's default).
    SideToMove,
}

impl Perspective {
    pub fn parse(s: &str) -> Option<Perspective> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Perspective::Black),
            "w" | "white" => Some(Perspective::White),
            "sidetomove" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// Whether values from the view of `to_move` must be turned round.
    pub fn flips(self, to_move: Side) -> bool {
        match self {
            Perspective::Black => to_move == Side::Second,
            Perspective::White => to_move == Side::First,
            Perspective::SideToMove => false,
        }
    }
}

/// Limits the command line sets, which a query may override.
#[derive(Clone, Debug)]
pub struct Defaults {
    pub max_visits: u64,
    pub perspective: Perspective,
    pub pv_len: usize,
}

/// One position of a query to analyse.
#[derive(Clone, Debug)]
pub struct Turn {
    pub number: usize,
    /// The game up to this turn, komi (with any handicap bonus) included.
    pub record: Record,
    pub to_move: Side,
    /// Root moves to search only / not to search, for the player to move.
    pub allow: Vec<Move>,
    pub avoid: Vec<Move>,
}

/// A query, checked.
#[derive(Clone, Debug)]
pub struct Query {
    pub id: String,
    pub turns: Vec<Turn>,
    pub max_visits: u64,
    pub max_time: Option<Duration>,
    /// Partial reports: the first after `first_report`, then every `report_every`.
    pub report_every: Option<Duration>,
    pub first_report: Option<Duration>,
    pub ownership: bool,
    pub policy: bool,
    pub perspective: Perspective,
    /// Moves of each PV after its first.
    pub pv_len: usize,
}

/// Every field an analysis query may have; others draw a warning.
const KNOWN_FIELDS: &[&str] = &[
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "analysisPVLen",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "priorities",
];

/// Reads an analysis query (`input` is an object with a string `id`).
pub fn read(input: &Json, id: &str, defaults: &Defaults) -> Result<(Query, Vec<Problem>), Problem> {
    let mut warnings = Vec::new();
    let field = |name: &str| input.get(name);

    // The board.
    let size_error = format!("Must provide an integer from {MIN_SIZE} to {MAX_SIZE}");
    let mut sizes = [0usize; 2];
    for (i, name) in ["boardXSize", "boardYSize"].into_iter().enumerate() {
        sizes[i] = field(name)
            .and_then(Json::as_i64)
            .filter(|n| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(n))
            .ok_or_else(|| problem(name, size_error.clone()))? as usize;
    }
    if sizes[0] != sizes[1] {
        return Err(problem(
            "boardYSize",
            "Tetrarch plays square boards only: boardYSize must equal boardXSize",
        ));
    }
    let size = sizes[0];
    let board = Board::new(size);

    let setup = match field("initialStones") {
        None => Vec::new(),
        Some(v) => moves_of(v, "initialStones", &board, false)?,
    };
    let moves = match field("moves") {
        None => {
            return Err(problem(
                "moves",
                "Must specify an array of [player,location] pairs",
            ))
        }
        Some(v) => moves_of(v, "moves", &board, true)?,
    };
    let initial_player = match field("initialPlayer") {
        None => None,
        Some(v) => Some(
            v.as_str()
                .and_then(parse_player)
                .ok_or_else(|| problem("initialPlayer", "Must be \"b\" or \"w\""))?,
        ),
    };

    let turns: Vec<usize> = match field("analyzeTurns") {
        None => vec![moves.len()],
        Some(v) => {
            let list = int_list(v).ok_or_else(|| {
                problem(
                    "analyzeTurns",
                    "Must specify an array of integers indicating turns to analyze",
                )
            })?;
            let mut turns = Vec::new();
            for t in list {
                if t < 0 || t as usize > moves.len() {
                    return Err(problem("analyzeTurns", format!("Invalid turn number: {t}")));
                }
                turns.push(t as usize);
            }
            turns.sort_unstable();
            turns.dedup();
            turns
        }
    };
    // Priorities are checked and then ignored: queries run one at a time, in order.
    if let Some(v) = field("priorities") {
        let list = int_list(v).ok_or_else(|| {
            problem(
                "priorities",
                "Must specify an array of integers indicating priorities",
            )
        })?;
        let Some(asked) = field("analyzeTurns").and_then(Json::as_array) else {
            return Err(problem(
                "priorities",
                "Can only specify when also specifying analyzeTurns",
            ));
        };
        if list.len() != asked.len() {
            return Err(problem(
                "priorities",
                "Must be of matching length to analyzeTurns",
            ));
        }
    }

    let rules =
        match field("rules") {
            Some(Json::String(s)) => Rules::named(s)
                .ok_or_else(|| problem("rules", format!("Could not parse rules: {s}")))?,
            Some(v @ Json::Object(_)) => Rules::object(v)
                .map_err(|e| problem("rules", format!("Could not parse rules: {e}")))?,
            _ => return Err(problem(
                "rules",
                "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON \
                 object with detailed rules parameters.",
            )),
        };
    let mut rules = rules;
    let komi_error = "Must be a integer or half-integer from -400.0 to 400.0";
    if let Some(v) = field("komi") {
        rules.komi = v
            .as_f64()
            .filter(|k| (-400.0..=400.0).contains(k) && (k * 2.0).fract() == 0.0)
            .ok_or_else(|| problem("komi", komi_error))? as f32;
    }
    if let Some(v) = field("whiteHandicapBonus") {
        rules.bonus = v
            .as_str()
            .and_then(HandicapBonus::parse)
            .ok_or_else(|| problem("whiteHandicapBonus", "Must be \"0\", \"N\" or \"N-1\""))?;
    }

    let mut max_visits = defaults.max_visits;
    let mut max_time = None;
    let mut perspective = defaults.perspective;
    if let Some(v) = field("overrideSettings") {
        let Some(members) = v.as_object() else {
            return Err(problem("overrideSettings", "Must be an object"));
        };
        let mut unknown = Vec::new();
        for (key, value) in members {
            // KataGo reads every setting as text, so numbers may come quoted.
            let text = match value {
                Json::String(s) => s.clone(),
                other => other.to_line(),
            };
            let bad = |what: &str| {
                problem(
                    "overrideSettings",
                    format!("Could not set settings: {key} must be {what}"),
                )
            };
            match key.as_str() {
                "maxVisits" | "maxPlayouts" => {
                    max_visits = text
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| (1..=1 << 50).contains(&n))
                        .ok_or_else(|| bad("an integer from 1 to 2^50"))?;
                }
                "maxTime" => {
                    let secs = text
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e7)
                        .ok_or_else(|| bad("a number of seconds"))?;
                    max_time = Some(Duration::from_secs_f64(secs));
                }
                "reportAnalysisWinratesAs" => {
                    perspective = Perspective::parse(&text)
                        .ok_or_else(|| bad("BLACK, WHITE or SIDETOMOVE"))?;
                }
                _ => unknown.push(key.clone()),
            }
        }
        if !unknown.is_empty() {
            warnings.push(problem(
                "overrideSettings",
                format!(
                    "Unknown config params or not supported by Tetrarch: {}",
                    unknown.join(",")
                ),
            ));
        }
    }
    if let Some(v) = field("maxVisits") {
        max_visits = v
            .as_i64()
            .filter(|&n| (1..=1 << 50).contains(&n))
            .ok_or_else(|| problem("maxVisits", "Must be an integer from 1 to 2^50"))?
            as u64;
    }
    let mut pv_len = defaults.pv_len;
    if let Some(v) = field("analysisPVLen") {
        pv_len = v
            .as_i64()
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| problem("analysisPVLen", "Must be an integer from 1 to 1000"))?
            as usize;
    }
    for (name, lo, hi) in [
        ("rootFpuReductionMax", 0.0, 2.0),
        ("rootPolicyTemperature", 0.01, 100.0),
    ] {
        if let Some(v) = field(name) {
            v.as_f64()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| problem(name, format!("Must be a number from {lo} to {hi}")))?;
            warnings.push(problem(name, "Not supported by Tetrarch; ignored"));
        }
    }
    let flag = |name: &str| -> Result<bool, Problem> {
        match field(name) {
            None => Ok(false),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| problem(name, "Must be a boolean")),
        }
    };
    let ownership = flag("includeOwnership")?;
    let policy = flag("includePolicy")?;
    for name in [
        "includeOwnershipStdev",
        "includeMovesOwnership",
        "includeMovesOwnershipStdev",
        "includePVVisits",
        "includeNoResultValue",
    ] {
        if flag(name)? {
            warnings.push(problem(name, "Not supported by Tetrarch; ignored"));
        }
    }
    let seconds = |name: &str| -> Result<Option<Duration>, Problem> {
        match field(name) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|s| (0.001..=1e6).contains(s))
                .map(|s| Some(Duration::from_secs_f64(s)))
                .ok_or_else(|| problem(name, "Must be number of seconds from 0.001 to 1000000.0")),
        }
    };
    let report_every = seconds("reportDuringSearchEvery")?;
    let first_report = seconds("firstReportDuringSearchAfter")?.or(report_every);
    if let Some(v) = field("priority") {
        if field("priorities").is_some() {
            return Err(problem(
                "priority",
                "Cannot specify both priority and priorities",
            ));
        }
        v.as_i64()
            .ok_or_else(|| problem("priority", "Must be a number between -2^62 and 2^62"))?;
    }

    let restrictions = restrictions(input, &board)?;

    if rules.differs_from_ours() {
        warnings.push(problem(
            "rules",
            format!(
                "Rules {} not supported by Tetrarch, using area scoring, positional superko, \
                 suicide illegal instead",
                rules.describe()
            ),
        ));
    }
    for (name, _) in input.as_object().unwrap_or(&[]) {
        if !KNOWN_FIELDS.contains(&name.as_str()) {
            warnings.push(problem(
                name,
                "Unexpected or unused field, do you have a typo?",
            ));
        }
    }

    // The positions: the setup, then the moves one by one.
    let first = initial_player.unwrap_or_else(|| match moves.first() {
        Some(&(side, _)) => side,
        None if handicap_of(&setup, &[]) > 0 => Side::Second,
        None => Side::First,
    });
    let mut record = Record::with_setup(size, rules.komi, &setup, first).map_err(|(i, e)| {
        problem(
            "initialStones",
            format!("Illegal stone {i}: {} ({e})", board.vertex(setup[i].1)),
        )
    })?;
    let mut out = Vec::new();
    let mut to_move = first;
    for t in 0..=moves.len() {
        if turns.binary_search(&t).is_ok() {
            let mut r = record.clone();
            let bonus = rules.bonus.points(handicap_of(&setup, &moves[..t]));
            r.set_komi(rules.komi + bonus as f32);
            let (allow, avoid) = restrictions.for_side(to_move);
            out.push(Turn {
                number: t,
                record: r,
                to_move,
                allow,
                avoid,
            });
        }
        let Some(&(side, m)) = moves.get(t) else {
            break;
        };
        record.play(side, m).map_err(|e: Illegal| {
            problem(
                "moves",
                format!("Illegal move {t}: {} ({e})", board.vertex(m).to_uppercase()),
            )
        })?;
        to_move = side.flip();
    }
    Ok((
        Query {
            id: id.to_string(),
            turns: out,
            max_visits,
            max_time,
            report_every,
            first_report,
            ownership,
            policy,
            perspective,
            pv_len,
        },
        warnings,
    ))
}

fn int_list(v: &Json) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Json::as_i64).collect()
}

fn parse_player(s: &str) -> Option<Side> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Side::First),
        "w" | "white" => Some(Side::Second),
        _ => None,
    }
}

/// A location: a GTP vertex (`D4`, `pass`) or KataGo's `(x,y)`, x from the left and y from
/// the top, counting from 0.
pub fn parse_location(board: &Board, s: &str) -> Option<Move> {
    let t = s.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        let n = board.size();
        return (x < n && y < n).then(|| Move::at(board.point(x, n - 1 - y)));
    }
    board.parse_vertex(t)
}

const PAIRS: &str = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";

fn moves_of(
    v: &Json,
    field: &str,
    board: &Board,
    pass_ok: bool,
) -> Result<Vec<(Side, Move)>, Problem> {
    let list = v.as_array().ok_or_else(|| problem(field, PAIRS))?;
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        let (Some(player), Some(location)) = (
            item.as_array()
                .filter(|p| p.len() == 2)
                .and_then(|p| p[0].as_str()),
            item.as_array()
                .filter(|p| p.len() == 2)
                .and_then(|p| p[1].as_str()),
        ) else {
            return Err(problem(field, PAIRS));
        };
        let side = parse_player(player)
            .ok_or_else(|| problem(field, format!("Could not parse player: {player}")))?;
        let m = parse_location(board, location)
            .filter(|m| pass_ok || !m.is_pass())
            .ok_or_else(|| problem(field, format!("Could not parse board location: {location}")))?;
        out.push((side, m));
    }
    Ok(out)
}

/// KataGo's count of handicap stones: Black's setup stones (when White has none) plus Black's
/// first moves in a row (a White pass in between does not break the row), if two or more.
fn handicap_of(setup: &[(Side, Move)], moves: &[(Side, Move)]) -> usize {
    if setup.iter().any(|&(s, _)| s == Side::Second) {
        return 0;
    }
    let mut black = setup.len();
    for (i, &(side, m)) in moves.iter().enumerate() {
        if side == Side::Second {
            let next_white = moves.get(i + 1).is_some_and(|&(s, _)| s == Side::Second);
            if next_white {
                black = setup.len();
                break;
            }
            if m.is_pass() {
                continue;
            }
            break;
        }
        if !m.is_pass() {
            black += 1;
        }
    }
    if black >= 2 {
        black
    } else {
        0
    }
}

/// What White gets for each handicap stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    Zero,
    N,
    NMinusOne,
}

impl HandicapBonus {
    fn parse(s: &str) -> Option<HandicapBonus> {
        match s.trim().to_ascii_uppercase().as_str() {
            "0" => Some(HandicapBonus::Zero),
            "N" => Some(HandicapBonus::N),
            "N-1" => Some(HandicapBonus::NMinusOne),
            _ => None,
        }
    }

    fn points(self, handicap: usize) -> usize {
        match self {
            HandicapBonus::Zero => 0,
            HandicapBonus::N => handicap,
            HandicapBonus::NMinusOne => handicap.saturating_sub(1),
        }
    }
}

/// A rule set as KataGo describes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub ko: &'static str,
    pub territory: bool,
    pub tax: &'static str,
    pub suicide: bool,
    pub button: bool,
    pub bonus: HandicapBonus,
    pub komi: f32,
}

impl Rules {
    fn base(ko: &'static str, territory: bool, tax: &'static str, suicide: bool) -> Rules {
        Rules {
            ko,
            territory,
            tax,
            suicide,
            button: false,
            bonus: HandicapBonus::Zero,
            komi: if territory { 6.5 } else { 7.5 },
        }
    }

    /// KataGo's shorthand names.
    pub fn named(name: &str) -> Option<Rules> {
        let n = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let r = match n.as_str() {
            "japanese" | "korean" => Rules::base("SIMPLE", true, "SEKI", false),
            "chinese" => Rules {
                bonus: HandicapBonus::N,
                ..Rules::base("SIMPLE", false, "NONE", false)
            },
            "chineseogs" | "chinese-ogs" | "chinesekgs" | "chinese-kgs" => Rules {
                bonus: HandicapBonus::N,
                ..Rules::base("POSITIONAL", false, "NONE", false)
            },
            "ancientarea" | "ancient-area" | "stonescoring" | "stone-scoring" => {
                Rules::base("SIMPLE", false, "ALL", false)
            }
            "ancientterritory" | "ancient-territory" => Rules::base("SIMPLE", true, "ALL", false),
            "agabutton" | "aga-button" => Rules {
                button: true,
                bonus: HandicapBonus::NMinusOne,
                komi: 7.0,
                ..Rules::base("SITUATIONAL", false, "NONE", false)
            },
            "aga" | "bga" | "french" => Rules {
                bonus: HandicapBonus::NMinusOne,
                ..Rules::base("SITUATIONAL", false, "NONE", false)
            },
            "nz" | "newzealand" | "new-zealand" => Rules {
                komi: 7.0,
                ..Rules::base("SITUATIONAL", false, "NONE", true)
            },
            "tromp-taylor" | "tromptaylor" => Rules::base("POSITIONAL", false, "NONE", true),
            "goe" | "ing" => Rules::base("POSITIONAL", false, "NONE", true),
            _ => return None,
        };
        Some(r)
    }

    /// KataGo's rules object; keys it does not give keep Tromp-Taylor's values.
    pub fn object(v: &Json) -> Result<Rules, String> {
        let mut r = Rules::base("POSITIONAL", false, "NONE", true);
        let mut tax_given = false;
        let mut komi_given = false;
        for (key, value) in v.as_object().unwrap_or(&[]) {
            let text = || {
                value
                    .as_str()
                    .map(|s| s.trim().to_ascii_uppercase())
                    .ok_or(format!("{key} must be a string"))
            };
            let flag = || value.as_bool().ok_or(format!("{key} must be a boolean"));
            match key.as_str() {
                "ko" => {
                    r.ko = match text()?.as_str() {
                        "SIMPLE" => "SIMPLE",
                        "POSITIONAL" => "POSITIONAL",
                        "SITUATIONAL" => "SITUATIONAL",
                        "SPIGHT" => "SPIGHT",
                        other => return Err(format!("unknown ko rule {other}")),
                    }
                }
                "score" | "scoring" => {
                    r.territory = match text()?.as_str() {
                        "AREA" => false,
                        "TERRITORY" => true,
                        other => return Err(format!("unknown scoring rule {other}")),
                    }
                }
                "tax" => {
                    tax_given = true;
                    r.tax = match text()?.as_str() {
                        "NONE" => "NONE",
                        "SEKI" => "SEKI",
                        "ALL" => "ALL",
                        other => return Err(format!("unknown tax rule {other}")),
                    }
                }
                "suicide" => r.suicide = flag()?,
                "hasButton" => r.button = flag()?,
                "friendlyPassOk" => {
                    flag()?;
                }
                "whiteHandicapBonus" => {
                    r.bonus = HandicapBonus::parse(&text()?)
                        .ok_or(format!("unknown whiteHandicapBonus {}", text()?))?
                }
                "komi" => {
                    komi_given = true;
                    r.komi = value
                        .as_f64()
                        .filter(|k| (-400.0..=400.0).contains(k) && (k * 2.0).fract() == 0.0)
                        .ok_or("komi must be an integer or half-integer from -400 to 400")?
                        as f32
                }
                other => return Err(format!("unknown rules option {other}")),
            }
        }
        // As KataGo: territory scoring taxes seki unless told otherwise.
        if r.territory && !tax_given {
            r.tax = "SEKI";
        }
        if !komi_given {
            r.komi = if r.territory {
                6.5
            } else if r.button {
                7.0
            } else {
                7.5
            };
        }
        Ok(r)
    }

    /// Whether the score or the legal moves could differ from Tetrarch's rules. The ko rule
    /// is not counted: simple ko, situational and positional superko part only in rare
    /// cycles, which Tetrarch resolves by positional superko.
    pub fn differs_from_ours(&self) -> bool {
        self.territory || self.tax != "NONE" || self.suicide || self.button
    }

    pub fn describe(&self) -> String {
        format!(
            "ko {} scoring {} tax {} suicide {}{}",
            self.ko,
            if self.territory { "TERRITORY" } else { "AREA" },
            self.tax,
            self.suicide,
            if self.button { " button" } else { "" }
        )
    }
}

/// `allowMoves` / `avoidMoves`, per player. Tetrarch restricts the root only: an entry counts
/// for the player to move at the root (any `untilDepth` of 1 or more).
#[derive(Default)]
struct Restrictions {
    allow: [Option<Vec<Move>>; 2],
    avoid: [Vec<Move>; 2],
}

impl Restrictions {
    fn for_side(&self, side: Side) -> (Vec<Move>, Vec<Move>) {
        (
            self.allow[side.index()].clone().unwrap_or_default(),
            self.avoid[side.index()].clone(),
        )
    }
}

fn restrictions(input: &Json, board: &Board) -> Result<Restrictions, Problem> {
    let mut r = Restrictions::default();
    let (allow, avoid) = (input.get("allowMoves"), input.get("avoidMoves"));
    if allow.is_some() && avoid.is_some() {
        return Err(problem(
            "allowMoves",
            "Cannot specify both allowMoves and avoidMoves",
        ));
    }
    let (name, list, allowing) = match (allow, avoid) {
        (Some(l), _) => ("allowMoves", l, true),
        (_, Some(l)) => ("avoidMoves", l, false),
        _ => return Ok(r),
    };
    let shape = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
    let entries = list.as_array().ok_or_else(|| problem(name, shape))?;
    if allowing && entries.len() > 2 {
        return Err(problem(
            name,
            "Currently allowMoves only allows at most one entry per player",
        ));
    }
    for e in entries {
        let (Some(player), Some(moves), Some(depth)) =
            (e.get("player"), e.get("moves"), e.get("untilDepth"))
        else {
            return Err(problem(name, shape));
        };
        let side = player
            .as_str()
            .and_then(parse_player)
            .ok_or_else(|| problem(name, "Must be \"b\" or \"w\""))?;
        depth
            .as_i64()
            .filter(|d| (1..=1_000_000_000).contains(d))
            .ok_or_else(|| problem(name, "Must be a positive integer"))?;
        let mut locs = Vec::new();
        for m in moves
            .as_array()
            .ok_or_else(|| problem(name, "Must be an array of GTP board vertices"))?
        {
            let s = m
                .as_str()
                .ok_or_else(|| problem(name, "Must be an array of GTP board vertices"))?;
            locs.push(
                parse_location(board, s)
                    .ok_or_else(|| problem(name, format!("Could not parse board location: {s}")))?,
            );
        }
        if allowing {
            let slot = &mut r.allow[side.index()];
            if slot.is_some() {
                return Err(problem(
                    name,
                    "Cannot specify allowMoves more than once for the same player",
                ));
            }
            *slot = Some(locs);
        } else {
            r.avoid[side.index()].extend(locs);
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::json::parse;

    fn defaults() -> Defaults {
        Defaults {
            max_visits: 500,
            perspective: Perspective::SideToMove,
            pv_len: 15,
        }
    }

    fn run(line: &str) -> Result<(Query, Vec<Problem>), Problem> {
        let v = parse(line).unwrap();
        read(&v, "q", &defaults())
    }

    fn err(line: &str) -> (String, String) {
        let p = run(line).expect_err(line);
        (p.field, p.message)
    }

    const BASE: &str = r#""rules":"chinese","boardXSize":9,"boardYSize":9"#;

    #[test]
    fn builds_every_turn_asked_for() {
        let (q, warnings) = run(&format!(
            r#"{{"moves":[["B","E5"],["W","c3"],["b","pass"],["W","(2,2)"]],{BASE},"komi":6.5,
                "analyzeTurns":[4,0,2,2],"maxVisits":7,"includeOwnership":true}}"#
        ))
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let numbers: Vec<usize> = q.turns.iter().map(|t| t.number).collect();
        assert_eq!(numbers, [0, 2, 4]);
        assert_eq!(q.turns[0].to_move, Side::First);
        assert_eq!(q.turns[1].to_move, Side::First, "after B E5, W C3");
        assert_eq!(q.turns[2].to_move, Side::First);
        assert_eq!(q.turns[2].record.moves().len(), 4);
        // (2,2) is the third column, third row from the top: C7.
        let b = q.turns[2].record.board();
        let c7 = b.parse_vertex("C7").unwrap().point().unwrap();
        assert_eq!(b.at(c7), tetrarch::games::go::board::WHITE);
        assert_eq!(q.turns[0].record.komi(), 6.5);
        assert_eq!((q.max_visits, q.ownership, q.policy), (7, true, false));
        // By default only the last turn.
        let (q, _) = run(&format!(r#"{{"moves":[["B","E5"]],{BASE}}}"#)).unwrap();
        assert_eq!(q.turns.len(), 1);
        assert_eq!(q.turns[0].number, 1);
        assert_eq!(q.turns[0].to_move, Side::Second);
        assert_eq!(q.turns[0].record.komi(), 7.5, "the rules' komi");
        assert_eq!(q.max_visits, 500);
    }

    #[test]
    fn setup_stones_the_first_player_and_the_handicap_bonus() {
        let (q, _) = run(&format!(
            r#"{{"initialStones":[["B","C3"],["B","G7"]],"moves":[],{BASE},"komi":0.5}}"#
        ))
        .unwrap();
        let t = &q.turns[0];
        assert_eq!(
            t.to_move,
            Side::Second,
            "White moves first in a handicap game"
        );
        assert_eq!(
            t.record.komi(),
            2.5,
            "Chinese rules: a point per handicap stone"
        );
        let (q, _) = run(
            r#"{"initialStones":[["B","C3"],["W","G7"]],"moves":[],"rules":"tromp-taylor",
                "boardXSize":9,"boardYSize":9,"initialPlayer":"W"}"#,
        )
        .unwrap();
        assert_eq!(q.turns[0].to_move, Side::Second);
        assert_eq!(q.turns[0].record.komi(), 7.5);
        // Handicap given as Black moves in a row, under AGA rules (N-1).
        let (q, _) = run(
            r#"{"moves":[["B","C3"],["B","G7"],["B","C7"],["W","G3"]],"rules":"aga",
                "komi":0.5,"boardXSize":9,"boardYSize":9}"#,
        )
        .unwrap();
        assert_eq!(q.turns[0].record.komi(), 2.5);
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (
                r#"{"moves":[],"rules":"chinese","boardYSize":9}"#,
                "boardXSize",
            ),
            (
                r#"{"moves":[],"rules":"chinese","boardXSize":9.5,"boardYSize":9}"#,
                "boardXSize",
            ),
            (
                r#"{"moves":[],"rules":"chinese","boardXSize":9,"boardYSize":26}"#,
                "boardYSize",
            ),
            (
                r#"{"moves":[],"rules":"chinese","boardXSize":9,"boardYSize":13}"#,
                "boardYSize",
            ),
            (
                r#"{"rules":"chinese","boardXSize":9,"boardYSize":9}"#,
                "moves",
            ),
        ];
        for (line, field) in cases {
            assert_eq!(err(line).0, field, "{line}");
        }
        let with = |extra: &str| format!(r#"{{"moves":[["B","E5"]],{BASE},{extra}}}"#);
        for (extra, field, says) in [
            (
                r#""initialStones":[["B","pass"]]"#,
                "initialStones",
                "location: pass",
            ),
            (r#""initialStones":[["B"]]"#, "initialStones", "pairs"),
            (r#""initialPlayer":"X""#, "initialPlayer", "\"b\" or \"w\""),
            (
                r#""analyzeTurns":[2]"#,
                "analyzeTurns",
                "Invalid turn number: 2",
            ),
            (r#""analyzeTurns":"1""#, "analyzeTurns", "array of integers"),
            (
                r#""priorities":[1,2],"analyzeTurns":[1]"#,
                "priorities",
                "matching length",
            ),
            (r#""komi":7.3"#, "komi", "half-integer"),
            (r#""komi":"7.5""#, "komi", "half-integer"),
            (r#""maxVisits":0"#, "maxVisits", "from 1"),
            (r#""maxVisits":10.5"#, "maxVisits", "from 1"),
            (r#""includeOwnership":"yes""#, "includeOwnership", "boolean"),
            (
                r#""reportDuringSearchEvery":0"#,
                "reportDuringSearchEvery",
                "seconds",
            ),
            (r#""overrideSettings":[]"#, "overrideSettings", "object"),
            (
                r#""overrideSettings":{"maxTime":"soon"}"#,
                "overrideSettings",
                "maxTime",
            ),
            (
                r#""priority":1,"priorities":[1],"analyzeTurns":[1]"#,
                "priority",
                "both",
            ),
            (
                r#""avoidMoves":[{"player":"B","moves":["Z9"],"untilDepth":1}]"#,
                "avoidMoves",
                "Z9",
            ),
            (
                r#""allowMoves":[{"player":"B"}]"#,
                "allowMoves",
                "subfields",
            ),
            (r#""whiteHandicapBonus":"2""#, "whiteHandicapBonus", "N-1"),
        ] {
            let (f, m) = err(&with(extra));
            assert_eq!(f, field, "{extra}");
            assert!(m.contains(says), "{extra}: {m}");
        }
        // Rules.
        let rules = |r: &str| {
            err(&format!(
                r#"{{"moves":[],"boardXSize":9,"boardYSize":9,"rules":{r}}}"#
            ))
        };
        assert_eq!(
            rules(r#""klingon""#),
            ("rules".into(), "Could not parse rules: klingon".into())
        );
        assert_eq!(rules("3").0, "rules");
        assert!(rules(r#"{"ko":"NONE"}"#).1.contains("unknown ko rule NONE"));
        assert!(rules(r#"{"moon":true}"#)
            .1
            .contains("unknown rules option moon"));
        assert_eq!(
            err(r#"{"moves":[],"boardXSize":9,"boardYSize":9}"#).0,
            "rules"
        );
        // An illegal move anywhere rejects the query, naming the move.
        let (f, m) = err(&format!(
            r#"{{"moves":[["B","E5"],["W","E5"]],{BASE},"analyzeTurns":[0]}}"#
        ));
        assert_eq!(f, "moves");
        assert_eq!(m, "Illegal move 1: E5 (point occupied)");
    }

    #[test]
    fn warnings_for_what_is_accepted_but_not_played() {
        let (q, w) = run(
            r#"{"id":"q","moves":[],"rules":"japanese","boardXSize":19,"boardYSize":19,
               "colour":"red","includePVVisits":true,"overrideSettings":{"maxVisits":"9",
               "wideRootNoise":0.1,"reportAnalysisWinratesAs":"BLACK"},"priority":3}"#,
        )
        .unwrap();
        let fields: Vec<&str> = w.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            ["overrideSettings", "includePVVisits", "rules", "colour"],
            "{w:?}"
        );
        assert!(w[0].message.contains("wideRootNoise"));
        assert!(w[2].message.contains("TERRITORY"), "{}", w[2].message);
        assert_eq!(q.max_visits, 9);
        assert_eq!(q.perspective, Perspective::Black);
        assert_eq!(q.turns[0].record.komi(), 6.5, "Japanese rules' komi");
        // Chinese and Chinese-OGS rules are ours: no warning.
        for r in ["chinese", "chinese-ogs", "CHINESE_KGS", "aga"] {
            let (_, w) = run(&format!(
                r#"{{"moves":[],"rules":"{r}","boardXSize":9,"boardYSize":9}}"#
            ))
            .unwrap();
            assert!(w.is_empty(), "{r}: {w:?}");
        }
        // The rules object: area scoring without suicide is ours; komi inside it counts.
        let (q, w) = run(
            r#"{"moves":[],"rules":{"ko":"SIMPLE","scoring":"AREA","suicide":false,"komi":5},
               "boardXSize":9,"boardYSize":9}"#,
        )
        .unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(q.turns[0].record.komi(), 5.0);
        let r = Rules::object(&parse(r#"{"scoring":"TERRITORY"}"#).unwrap()).unwrap();
        assert_eq!((r.tax, r.komi, r.differs_from_ours()), ("SEKI", 6.5, true));
    }

    #[test]
    fn root_restrictions_apply_to_the_player_to_move() {
        let (q, _) = run(&format!(
            r#"{{"moves":[["B","E5"]],{BASE},"analyzeTurns":[0,1],
                "avoidMoves":[{{"player":"W","moves":["D4","pass"],"untilDepth":1}},
                              {{"player":"B","moves":["A1"],"untilDepth":3}}]}}"#
        ))
        .unwrap();
        let b = Board::new(9);
        assert_eq!(q.turns[0].avoid, [b.parse_vertex("A1").unwrap()]);
        assert_eq!(
            q.turns[1].avoid,
            [b.parse_vertex("D4").unwrap(), Move::PASS]
        );
        assert!(q.turns[1].allow.is_empty());
    }

    #[test]
    fn perspective_flips_only_when_it_must() {
        assert!(Perspective::Black.flips(Side::Second));
        assert!(!Perspective::Black.flips(Side::First));
        assert!(Perspective::White.flips(Side::First));
        assert!(!Perspective::SideToMove.flips(Side::Second));
        assert_eq!(
            Perspective::parse("SIDETOMOVE"),
            Some(Perspective::SideToMove)
        );
        assert_eq!(Perspective::parse("w"), Some(Perspective::White));
        assert_eq!(Perspective::parse("red"), None);
    }
}
