//! Protocol-neutral search events: not yet implemented.
