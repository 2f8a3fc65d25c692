//! `tetrarch dxp`: DXP (DamExchange) engine-against-engine draughts over TCP, both roles.
//!
//! Scheme: the command line ([`DxpArgs`]) is here; the messages and the connection are the
//! shared wire codec (`tetrarch_wire::dxp`), and [`session`] plays the games: the follower
//! (`--listen`) serves connections one after another, the initiator (`--connect`) requests
//! the games.

mod session;

pub use session::run;

/// The DXP port everyone uses.
pub use tetrarch_wire::dxp::DEFAULT_PORT;

/// `--elo`: within draughts' calibrated table.
fn parse_elo(text: &str) -> Result<i64, String> {
    let t = tetrarch::games::draughts::strength::ELO;
    let (lo, hi) = (i64::from(t.min_elo()), i64::from(t.max_elo()));
    match text.parse::<i64>() {
        Ok(e) if (lo..=hi).contains(&e) => Ok(e),
        _ => Err(format!("an Elo in {lo}..{hi}")),
    }
}

/// Command-line options of `tetrarch dxp`.
#[derive(clap::Args, Clone, Debug)]
pub struct DxpArgs {
    /// Follower (server) role: wait for game requests on this port of 127.0.0.1 (27531 when
    /// no port is given; 0: any free port, named on stderr as `dxp: listening on ADDR`).
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "27531",
          conflicts_with = "connect")]
    pub listen: Option<u16>,
    /// Initiator (client) role: connect to HOST:PORT and request games.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Initiator: number of games, colours alternating (we take White first).
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Initiator: thinking time per game in minutes (the follower takes the request's).
    #[arg(long, default_value_t = 5)]
    pub minutes: u32,
    /// Initiator: moves per game before adjudication (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub moves: u32,
    /// Search to this depth instead of by the clock.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search this many nodes instead of by the clock.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Think this many milliseconds per move instead of by the clock.
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Name announced to the opponent.
    #[arg(long, default_value = "Tetrarch")]
    pub name: String,
    /// Log moves and messages to stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Directory of the endgame tables (`tetrarch-tune bitbase`); `none` for no tables.
    /// Default: ~/.local/share/tetrarch-data/draughts-bb when it exists.
    #[arg(long, value_name = "DIR")]
    pub bitbases: Option<String>,
    /// Play at this Elo (draughts' calibrated table; see README), by node budgets.
    #[arg(long, value_parser = parse_elo)]
    pub elo: Option<i64>,
}

impl DxpArgs {
    /// The endgame tables these options ask for: an error when an explicit directory does
    /// not load.
    pub fn tables(
        &self,
    ) -> Result<Option<std::sync::Arc<tetrarch::games::draughts::bitbase::Bitbases>>, String> {
        match self.bitbases.as_deref() {
            Some("none") | Some("") => Ok(None),
            Some(dir) => crate::hub::bitbases::load(std::path::Path::new(dir)),
            None => Ok(crate::hub::bitbases::load_default().0),
        }
    }
}
