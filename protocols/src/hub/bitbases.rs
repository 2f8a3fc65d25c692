//! Loading the draughts endgame tables for the Hub and DXP front ends.
//!
//! Scheme: the tables of a directory are read once per process and shared (`Arc`) by every
//! session and engine that asks for the same directory, since a full set is large. The
//! default directory (`DEFAULT_DIR` under the home directory) is used when it exists; without
//! it, or without files in it, the engine plays on with no tables, exactly as before.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use once_cell::sync::Lazy;
use tetrarch::games::draughts::bitbase::{Bitbases, DEFAULT_DIR};

static LOADED: Lazy<Mutex<HashMap<PathBuf, Arc<Bitbases>>>> = Lazy::new(Default::default);

/// The default table directory, if the home directory is known.
pub fn default_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| Path::new(&h).join(DEFAULT_DIR))
}

/// The tables in `dir`: an error when the directory is missing or holds a damaged file,
/// `None` when it holds no table.
pub fn load(dir: &Path) -> Result<Option<Arc<Bitbases>>, String> {
    if !dir.is_dir() {
        return Err(format!("'{}' is not a directory", dir.display()));
    }
    let mut cache = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(db) = cache.get(dir) {
        return Ok(Some(db.clone()));
    }
    let db = Bitbases::load_with(|name| std::fs::read(dir.join(name)).ok())?;
    if db.is_empty() {
        return Ok(None);
    }
    let db = Arc::new(db);
    cache.insert(dir.to_path_buf(), db.clone());
    Ok(Some(db))
}

/// The tables of the default directory, when it exists and reads cleanly (silently none
/// otherwise: a front end without tables plays on), with the directory.
pub fn load_default() -> (Option<Arc<Bitbases>>, String) {
    match default_dir() {
        Some(dir) if dir.is_dir() => match load(&dir) {
            Ok(Some(db)) => (Some(db), dir.display().to_string()),
            _ => (None, String::new()),
        },
        _ => (None, String::new()),
    }
}
