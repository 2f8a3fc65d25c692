//! Alpha-beta search generic over `game::Position`: not yet implemented.
