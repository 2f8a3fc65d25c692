//! Monte-Carlo tree search over `game::MctsState` (Go): not yet implemented.
